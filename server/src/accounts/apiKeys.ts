/**
 * API keys: `mg_<43 random base64url chars>` (256 bits). Only the SHA-256 of a key is stored (a
 * high-entropy key needs no slow hash); the first characters are kept to recognise a key in lists.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/pool.js';

export const KEY_PREFIX = 'mg_';

export function newApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export async function createApiKey(
  db: Queryable,
  accountId: string,
  expiresAt?: Date | null,
): Promise<{ keyId: string; apiKey: string }> {
  const apiKey = newApiKey();
  const { rows } = await db.query<{ id: string }>(
    `insert into api_keys (account_id, key_hash, key_prefix, expires_at) values ($1, $2, $3, $4) returning id`,
    [accountId, hashApiKey(apiKey), apiKey.slice(0, 10), expiresAt ?? null],
  );
  return { keyId: rows[0]!.id, apiKey };
}

/** Returns false when no such key exists. */
export async function disableApiKey(db: Queryable, keyId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `update api_keys set disabled_at = coalesce(disabled_at, now()) where id = $1`,
    [keyId],
  );
  return (rowCount ?? 0) > 0;
}
