/**
 * Where outputs and face crops are kept. The server talks to this interface only, so an
 * S3-compatible store can be added next to storage/local.ts without touching routes or jobs.
 * Keys are relative paths made of [A-Za-z0-9._-] segments, e.g. `generations/<id>/<id>-1.png`.
 */
import type { Readable } from 'node:stream';
import { mimeTypeForExtension } from '@mediagen/core';

export interface StoredObject {
  size: number;
  stream: Readable;
}

export interface Storage {
  /** Stores a file (moved or copied from `sourcePath`). */
  putFile(key: string, sourcePath: string): Promise<void>;
  putBuffer(key: string, data: Buffer): Promise<void>;
  /** Opens an object, optionally a byte range [start, end] inclusive; null when absent. */
  open(key: string, range?: { start: number; end: number }): Promise<StoredObject | null>;
  size(key: string): Promise<number | null>;
  /** A local path for the object when the store is a file system (lets jobs skip a download). */
  localPath?(key: string): Promise<string | null>;
  /** Deletes an object; an absent one is not an error (deleting twice is safe). */
  delete(key: string): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function isValidKey(key: string): boolean {
  const parts = key.split('/');
  return parts.length >= 1 && parts.length <= 6 && parts.every((p) => SEGMENT.test(p) && !p.includes('..'));
}

/** MIME type of a stored object from its extension (we name every file we store). */
export function mimeOfKey(key: string): string {
  return mimeTypeForExtension(key.slice(key.lastIndexOf('.') + 1)) ?? 'application/octet-stream';
}
