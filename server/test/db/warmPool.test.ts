/**
 * warmPool (db/warmPool.ts) opens a pool's connections before requests need them, and an API process
 * starts with its connections open and the authentication function called on each, so the first burst
 * of calls after a start does not open them.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, endPool } from '../../dist/db/pool.js';
import { warmPool } from '../../dist/db/warmPool.js';
import type { TestServer } from '../../dist/testing/index.js';
import { startServer } from '../helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv?.stop();
});

/** Backends of the server's database whose application_name is `name`. */
async function backendsNamed(name: string): Promise<number> {
  const client = new pg.Client({ connectionString: srv.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where application_name = $1',
      [name],
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('warmPool', () => {
  it('opens the connections at once and runs the statement on each', async () => {
    const pool = createPool(srv.databaseUrl, 6, 4);
    try {
      await warmPool(pool, 4, "select set_config('application_name', $1, false)", ['warm-four']);
      expect(pool.totalCount).toBe(4);
      expect(pool.idleCount).toBe(4);
      // Four distinct backends ran it (a connection reused for two would leave fewer).
      expect(await backendsNamed('warm-four')).toBe(4);
    } finally {
      await endPool(pool);
    }
  });

  it('opens no more than the pool holds, instead of waiting for a connection that never frees', async () => {
    const pool = createPool(srv.databaseUrl, 2, 2);
    try {
      await warmPool(pool, 5);
      expect(pool.totalCount).toBe(2);
    } finally {
      await endPool(pool);
    }
  });

  it('a statement that fails rejects, and every connection goes back to the pool', async () => {
    const pool = createPool(srv.databaseUrl, 3, 3);
    try {
      await expect(warmPool(pool, 3, 'select no_such_function()')).rejects.toThrow(/no_such_function/);
      expect(pool.idleCount).toBe(pool.totalCount);
      expect(pool.waitingCount).toBe(0);
    } finally {
      await endPool(pool);
    }
  });

  it('the pool keeps its min connections open when they idle past the idle timeout', async () => {
    const pool = new pg.Pool({ connectionString: srv.databaseUrl, max: 4, min: 2, idleTimeoutMillis: 50 });
    try {
      await warmPool(pool, 4);
      expect(pool.totalCount).toBe(4);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(pool.totalCount).toBe(2);
    } finally {
      await endPool(pool);
    }
  });
});

describe('an API process at start', () => {
  it('holds its ten connections open, besides the one it listens on for generation events', async () => {
    const client = new pg.Client({ connectionString: srv.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      expect(rows[0]!.n).toBeGreaterThanOrEqual(11);
    } finally {
      await client.end();
    }
  });
});
