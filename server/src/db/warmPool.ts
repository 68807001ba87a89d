/**
 * Opens a pool's connections before the first requests need them. Opening a PostgreSQL connection
 * costs a backend process and a SCRAM handshake, and a backend's first call of a PL/pgSQL function
 * compiles it; a freshly started server meeting a burst of calls paid all of that inside the calls
 * (20 concurrent moderation calls: up to 0.7 s each on the first burst, 0.15-0.2 s on later ones,
 * docs/moderation.md). The pool keeps the connections opened here (its `min`), so a server that has
 * been idle does not pay it again either.
 */
import type { Pool } from './pool.js';

/** Opens `count` connections at once (at most the pool's max) and runs `sql` with `params` on each. */
export async function warmPool(
  pool: Pool,
  count: number,
  sql = 'select 1',
  params: unknown[] = [],
): Promise<void> {
  const n = Math.min(count, pool.options.max ?? count);
  const settled = await Promise.allSettled(Array.from({ length: n }, () => pool.connect()));
  const clients = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    await Promise.all(clients.map((client) => client.query(sql, params)));
  } finally {
    for (const client of clients) client.release();
  }
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}
