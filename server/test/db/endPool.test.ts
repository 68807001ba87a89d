/**
 * endPool (db/pool.ts) resolves only when every connection of the pool has closed, so the embedded
 * PostgreSQL stopped right after it cuts no connection off mid-goodbye (a graceful stop used to log
 * "terminating connection due to administrator command" on about one Ctrl-C in four).
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, endPool } from '../../dist/db/pool.js';
import type { TestServer } from '../../dist/testing/index.js';
import { startServer } from '../helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv?.stop();
});

describe('endPool', () => {
  it('resolves once every connection, idle or just released, has closed', async () => {
    const pool = createPool(srv.databaseUrl, 4);
    const opened: pg.PoolClient[] = [];
    const closed = new Set<pg.PoolClient>();
    pool.on('connect', (client) => {
      opened.push(client);
      client.once('end', () => closed.add(client));
    });
    // Four queries at once open four connections, which then sit idle in the pool.
    await Promise.all([1, 2, 3, 4].map(() => pool.query('select pg_sleep(0.05)')));
    expect(opened).toHaveLength(4);
    await endPool(pool);
    expect(closed.size).toBe(4);
  });

  it('an empty pool ends at once', async () => {
    await expect(endPool(createPool(srv.databaseUrl, 2))).resolves.toBeUndefined();
  });
});
