/**
 * Which database the server uses: DATABASE_URL, or else the embedded PostgreSQL under the data
 * directory with a `mediagen` database created on first start.
 */
import pg from 'pg';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.js';

export interface Database {
  url: string;
  embedded?: EmbeddedPostgres;
}

export const EMBEDDED_DATABASE_NAME = 'mediagen';

export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rows.length === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } catch (err) {
    if ((err as { code?: string }).code !== '42P04') throw err; // created concurrently
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export async function openDatabase(config: Config, log: Logger): Promise<Database> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPgPort || undefined,
    log: (l) => log.info(`[postgres] ${l}`),
  });
  try {
    return { url: await ensureDatabase(embedded.url, EMBEDDED_DATABASE_NAME), embedded };
  } catch (err) {
    await embedded.stop();
    throw err;
  }
}
