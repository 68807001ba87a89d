/**
 * A static HTTP server for fixture files (Content-Type from the extension), the "public URL" that
 * tests and benchmarks hand to the API as image_url, video_url and the like.
 *
 *   const files = await startFileServer(dir);                       // in this process
 *   const files = await startFileServer(dir, { ownProcess: true }); // in a child process
 *   files.url('photo.jpg'); await files.close();
 *
 * In its own process it answers as a real origin would: a benchmark whose heap holds models (and
 * whose garbage collection would stall the replies) does not slow the downloads it measures.
 */
import { spawn } from 'node:child_process';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mimeOfKey } from '../storage/storage.js';

export interface FileServer {
  baseUrl: string;
  url(name: string): string;
  close(): Promise<void>;
}

export interface FileServerOptions {
  /** Serve from a child process (this file run as a script) instead of this one. */
  ownProcess?: boolean;
}

/** Files up to this size are answered from memory, as a static origin or CDN edge answers them from its cache. */
const CACHED_MAX_BYTES = 8 * 1024 * 1024;

/** The request handler: files under `dir` only (403 outside it), 404 for anything else. */
function serveDirectory(dir: string): Server {
  const root = resolve(dir);
  // A file is read again when its size or modification time changes (tests write files while serving).
  const cache = new Map<string, { mtimeMs: number; size: number; bytes: Buffer }>();
  return createServer((req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const file = resolve(join(root, path));
      if (!file.startsWith(root + sep)) {
        res.writeHead(403).end();
        return;
      }
      const s = statSync(file, { throwIfNoEntry: false });
      if (!s?.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': mimeOfKey(file), 'content-length': String(s.size) });
      if (req.method === 'HEAD') {
        res.end();
      } else if (s.size <= CACHED_MAX_BYTES) {
        let hit = cache.get(file);
        if (!hit || hit.mtimeMs !== s.mtimeMs || hit.size !== s.size) {
          hit = { mtimeMs: s.mtimeMs, size: s.size, bytes: readFileSync(file) };
          cache.set(file, hit);
        }
        res.end(hit.bytes);
      } else {
        createReadStream(file).pipe(res);
      }
    } catch {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
}

function fileServerAt(port: number, close: () => Promise<void>): FileServer {
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    url: (name) => `${baseUrl}/${name.split('/').map(encodeURIComponent).join('/')}`,
    close,
  };
}

export async function startFileServer(dir: string, options: FileServerOptions = {}): Promise<FileServer> {
  if (options.ownProcess) return startInChildProcess(dir);
  const server = serveDirectory(dir);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return fileServerAt(
    port,
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
}

async function startInChildProcess(dir: string): Promise<FileServer> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), resolve(dir)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolvePort(Number(String(d).trim())));
    void exited.then(() => reject(new Error('the file server process exited at start')));
  });
  return fileServerAt(port, async () => {
    if (child.exitCode === null) child.kill();
    await exited;
  });
}

// Run as a script (the child of startFileServer(dir, { ownProcess: true })): serve argv[2], print the port.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = serveDirectory(process.argv[2]!);
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
  });
}
