/** The PostgreSQL connection pool and a transaction helper. */
import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// bigint (int8) columns hold micro-dollars: parse them as numbers (exact up to 9e15 = $9 billion).
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** The connections of each pool that are still open (endPool waits for them). */
const openClients = new WeakMap<Pool, Set<pg.PoolClient>>();

/**
 * `min` connections are kept open however long the pool idles (warmPool.ts opens them at start); the
 * rest close after 30 s idle.
 */
export function createPool(connectionString: string, max = 10, min = 0): Pool {
  const pool = new pg.Pool({ connectionString, max, min, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (err) => console.error(`[db] idle connection error: ${err.message}`));
  const open = new Set<pg.PoolClient>();
  openClients.set(pool, open);
  pool.on('connect', (client) => {
    open.add(client);
    client.once('end', () => open.delete(client));
  });
  return pool;
}

/**
 * Ends the pool and waits until every one of its connections has closed (at most `timeoutMs`).
 * pool.end() resolves once the connections are asked to close, before they have: stopping the
 * embedded PostgreSQL right after it cut some of them off mid-goodbye, and the server logged
 * "terminating connection due to administrator command" on about one Ctrl-C in four.
 */
export async function endPool(pool: Pool, timeoutMs = 5_000): Promise<void> {
  // No connection opens after end(), so the ones open now are all there is to wait for.
  const closed = [...(openClients.get(pool) ?? [])].map(
    (client) => new Promise<void>((resolve) => client.once('end', () => resolve())),
  );
  await pool.end();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([Promise.all(closed), timeout]);
  clearTimeout(timer);
}

/** Runs `fn` in one transaction; rolls back on any error. */
export async function transaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Every query executor: a pool or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;
