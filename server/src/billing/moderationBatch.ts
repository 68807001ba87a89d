/**
 * Moderation billing (spec 4.6; the price of each call is core's moderationChargeForCall): the first
 * 10 successful calls of an account are free; after that every 10 successful calls cost 1 cent
 * together, charged on the call that completes the batch. If that charge cannot be paid the call
 * answers 402 and is not counted (the same call succeeds after a top-up). The account row is locked
 * (FOR UPDATE) so concurrent calls count one after another: none is double-counted and no batch is
 * skipped.
 */
import { MODERATION_LIMITS, moderationChargeForCall } from '@mediagen/core';
import { transaction, type Pool } from '../db/pool.js';
import { InsufficientCreditsError } from './charge.js';
import { appendLedger } from './ledger.js';

export interface ModerationCount {
  /** Calls counted so far, this one included. */
  calls: number;
  chargedMicro: number;
}

/** Counts one successful call; throws InsufficientCreditsError (nothing counted) when its batch cannot be paid. */
export async function countModerationCall(pool: Pool, accountId: string): Promise<ModerationCount> {
  return transaction(pool, async (tx) => {
    const { rows } = await tx.query<{ moderation_calls: number; balance_micro: number }>(
      `select moderation_calls, balance_micro from accounts where id = $1 for update`,
      [accountId],
    );
    const account = rows[0];
    if (!account) throw new Error(`account ${accountId} vanished`);
    const n = account.moderation_calls + 1;
    const price = moderationChargeForCall(n);
    if (price > account.balance_micro) throw new InsufficientCreditsError(price, account.balance_micro);
    await tx.query(
      `update accounts set moderation_calls = $2, balance_micro = balance_micro - $3 where id = $1`,
      [accountId, n, price],
    );
    if (price > 0) {
      await appendLedger(tx, {
        accountId,
        kind: 'moderation_batch',
        amountMicro: -price,
        note: `moderation calls ${n - MODERATION_LIMITS.batchSize + 1}-${n}`,
      });
    }
    return { calls: n, chargedMicro: price };
  });
}
