/** Marks a generation completed with its stored outputs, and wakes `Prefer: wait` requests. */
import { transaction, type Pool } from '../db/pool.js';
import type { StoredOutput } from '../api/generationView.js';

/** Returns false when the generation was no longer processing (another attempt finished it). */
export async function completeGeneration(pool: Pool, id: string, outputs: StoredOutput[]): Promise<boolean> {
  return transaction(pool, async (tx) => {
    const { rowCount } = await tx.query(
      `update generations set status = 'completed', outputs = $2::jsonb, finished_at = now(), error_message = null
       where id = $1 and status = 'processing'`,
      [id, JSON.stringify(outputs)],
    );
    if (!rowCount) return false;
    await tx.query(`select pg_notify('mediagen_generation', $1)`, [id]);
    return true;
  });
}
