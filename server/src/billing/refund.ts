/**
 * Failing a generation and refunding it, in one transaction, exactly once: the row moves from
 * processing to failed only if it is still processing (so a retried or duplicated job cannot do it
 * twice), and the ledger's unique index on (generation_id) for refunds is a second guard.
 */
import type { PoolClient } from '../db/pool.js';
import { changeBalance } from './ledger.js';

/** Returns true when this call failed the generation (and refunded it), false if it was already final. */
export async function failAndRefund(
  tx: PoolClient,
  generationId: string,
  errorMessage: string,
): Promise<boolean> {
  const { rows } = await tx.query<{ account_id: string; price_micro: number }>(
    `update generations set status = 'failed', error_message = $2, finished_at = now(), outputs = null
     where id = $1 and status in ('queued', 'processing') returning account_id, price_micro`,
    [generationId, errorMessage.slice(0, 2000)],
  );
  const row = rows[0];
  if (!row) return false;
  if (row.price_micro > 0) {
    await changeBalance(tx, {
      accountId: row.account_id,
      kind: 'refund',
      amountMicro: row.price_micro,
      generationId,
      note: 'generation failed',
    });
  }
  await tx.query(`select pg_notify('mediagen_generation', $1)`, [generationId]);
  return true;
}
