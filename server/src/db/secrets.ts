/**
 * The URL signing secret: MEDIAGEN_SIGNING_SECRET when set, else one generated on first start and
 * kept in the `settings` table, so every API and worker process on the database signs alike and
 * URLs survive restarts.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from './pool.js';

export async function signingSecret(pool: Pool, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await pool.query(
    `insert into settings (name, value) values ('signing_secret', $1) on conflict (name) do nothing`,
    [randomBytes(32).toString('hex')],
  );
  const { rows } = await pool.query<{ value: string }>(
    `select value from settings where name = 'signing_secret'`,
  );
  return rows[0]!.value;
}
