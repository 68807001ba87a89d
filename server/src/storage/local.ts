/** The file-system store: objects are files under MEDIAGEN_STORAGE_DIR. */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isValidKey, type Storage, type StoredObject } from './storage.js';

export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!isValidKey(key)) throw new Error(`invalid storage key "${key}"`);
    return join(this.root, ...key.split('/'));
  }

  async putFile(key: string, sourcePath: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const tmp = `${target}.tmp-${process.pid}`;
    try {
      await rename(sourcePath, tmp);
    } catch {
      await copyFile(sourcePath, tmp); // other device
    }
    await rename(tmp, target);
  }

  async putBuffer(key: string, data: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const tmp = `${target}.tmp-${process.pid}`;
    await writeFile(tmp, data);
    await rename(tmp, target);
  }

  async size(key: string): Promise<number | null> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? s.size : null;
    } catch {
      return null;
    }
  }

  async open(key: string, range?: { start: number; end: number }): Promise<StoredObject | null> {
    const size = await this.size(key);
    if (size === null) return null;
    const stream = createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    return { size, stream };
  }

  async localPath(key: string): Promise<string | null> {
    return (await this.size(key)) === null ? null : this.pathOf(key);
  }

  async delete(key: string): Promise<void> {
    const target = this.pathOf(key);
    await rm(target, { force: true });
    // Remove the object's folder once empty (generations/<id>/, faces/<batch>/), never a top-level one
    // (another process may be creating a key in it). A folder still in use makes rmdir fail: fine.
    if (key.split('/').length >= 3) await rmdir(dirname(target)).catch(() => undefined);
  }
}
