/**
 * The rate-limit buckets are an unlogged table (migration 0004): taking a token commits without
 * waiting for a WAL flush. A crash empties an unlogged table; the limit must then simply start again
 * with full buckets.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../dist/testing/index.js';
import { call, expectError, startServer } from '../helpers.js';

let srv: TestServer;
let pool: pg.Pool;
beforeAll(async () => {
  srv = await startServer({ env: { MEDIAGEN_RATE_LIMIT: '1/m,burst=3' } });
  pool = new pg.Pool({ connectionString: srv.databaseUrl, max: 1 });
});
afterAll(async () => {
  await pool?.end();
  await srv?.stop();
});

describe('rate_limit_buckets', () => {
  it('is unlogged', async () => {
    const { rows } = await pool.query<{ relpersistence: string }>(
      `select relpersistence from pg_class where oid = 'rate_limit_buckets'::regclass`,
    );
    expect(rows[0]!.relpersistence).toBe('u');
  });

  it('starts again with a full bucket once emptied, as after a crash', async () => {
    const models = () => call(srv, 'GET', '/models', { key: srv.apiKey });
    for (let i = 0; i < 3; i++) expect((await models()).status).toBe(200);
    expectError(await models(), 429, 'RATE_LIMITED');
    // Crash recovery resets an unlogged table to empty.
    await pool.query('truncate rate_limit_buckets');
    for (let i = 0; i < 3; i++) expect((await models()).status).toBe(200);
    expectError(await models(), 429, 'RATE_LIMITED');
  });
});
