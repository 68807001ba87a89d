/** Marks a generation completed with its stored outputs, and wakes `Prefer: wait` requests. */
import type { Pool } from '../db/pool.js';
import type { StoredOutput } from '../api/generationView.js';

/**
 * One statement (atomic, one round trip): moves the row from processing to completed and NOTIFYs its
 * id. Returns false when the generation was no longer processing (another attempt finished it).
 */
export async function completeGeneration(pool: Pool, id: string, outputs: StoredOutput[]): Promise<boolean> {
  const { rows } = await pool.query(
    `with done as (
       update generations set status = 'completed', outputs = $2::jsonb, finished_at = now(), error_message = null
       where id = $1 and status = 'processing' returning id
     )
     select pg_notify('mediagen_generation', id::text) from done`,
    [id, JSON.stringify(outputs)],
  );
  return rows.length > 0;
}
