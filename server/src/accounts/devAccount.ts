/**
 * The development account of a zero-setup start: created on first start with DEV_BALANCE_USD of
 * credits. Its API key is kept in <data dir>/dev-key (mode 0600) because the database stores only
 * hashes; later starts print the same key again. Deleting the file makes the next start create a
 * fresh key for the same account.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Pool } from '../db/pool.js';
import { createAccount } from './accounts.js';
import { createApiKey, hashApiKey } from './apiKeys.js';

export const DEV_BALANCE_USD = 100;

export interface DevAccount {
  accountId: string;
  apiKey: string;
  keyFile: string;
  created: boolean;
}

export async function ensureDevAccount(pool: Pool, dataDir: string): Promise<DevAccount> {
  const keyFile = join(dataDir, 'dev-key');
  if (existsSync(keyFile)) {
    const apiKey = (await readFile(keyFile, 'utf8')).trim();
    const { rows } = await pool.query<{ account_id: string; usable: boolean }>(
      `select account_id, disabled_at is null and (expires_at is null or expires_at > now()) as usable
       from api_keys where key_hash = $1`,
      [hashApiKey(apiKey)],
    );
    if (rows[0]?.usable) return { accountId: rows[0].account_id, apiKey, keyFile, created: false };
  }
  const existing = await pool.query<{ value: string }>(
    `select value from settings where name = 'dev_account_id'`,
  );
  let accountId = existing.rows[0]?.value;
  let created = false;
  if (!accountId) {
    accountId = (await createAccount(pool, DEV_BALANCE_USD)).accountId;
    await pool.query(
      `insert into settings (name, value) values ('dev_account_id', $1) on conflict (name) do nothing`,
      [accountId],
    );
    created = true;
  }
  const { apiKey } = await createApiKey(pool, accountId);
  await writeFile(keyFile, apiKey + '\n', { mode: 0o600 });
  return { accountId, apiKey, keyFile, created };
}
