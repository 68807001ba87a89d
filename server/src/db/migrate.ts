/**
 * Schema migrations: the ordered SQL files of src/db/migrations (0001_*.sql, 0002_*.sql, ...) are
 * applied once each, in order, under a PostgreSQL advisory lock so that several processes starting
 * at once do not race, after graphile-worker's own migrations (its runMigrations).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Logger, runMigrations } from 'graphile-worker';
import { SERVER_ROOT } from '../config.js';
import type { Pool } from './pool.js';

export const MIGRATIONS_DIR = join(SERVER_ROOT, 'src', 'db', 'migrations');
/** Arbitrary constant: the advisory lock id for migrations ("mediagen" in ASCII, truncated). */
const MIGRATION_LOCK = 0x6d656469;

export async function migrate(pool: Pool, log: (l: string) => void = () => undefined): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    // graphile-worker's schema first: our functions use its types (job_spec) and add_jobs.
    await runMigrations({ pgPool: pool, logger: quietLogger() });
    await client.query(
      `create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    const done = new Set(
      (await client.query<{ name: string }>('select name from schema_migrations')).rows.map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(join(MIGRATIONS_DIR, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('insert into schema_migrations(name) values ($1)', [file]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
      applied.push(file);
      log(`applied migration ${file}`);
    }
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return applied;
}

/** graphile-worker's logger, showing warnings and errors only. */
export function quietLogger(): Logger {
  return new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') console.error(`[worker] ${level}: ${message}`);
  });
}
