/**
 * Moderation billing (spec 4.6; the price of each call is core's moderationChargeForCall): the first
 * 10 successful calls of an account are free; after that every 10 successful calls cost 1 cent
 * together, charged on the call that completes the batch. If that charge cannot be paid the call
 * answers 402 and is not counted (the same call succeeds after a top-up). The count's update locks the
 * account row until the transaction ends, so concurrent calls count one after another: none is
 * double-counted and no batch is skipped. Three round trips for most calls (begin, count, commit).
 *
 * The API counts a call while its media is classified, once the media has been read (so a bad input
 * is never counted), and takes the count back with uncountModerationCall if the call fails after all.
 * Both keep one invariant at every commit: the account has paid exactly the sum of
 * moderationChargeForCall(k) for k = 1 .. moderation_calls. So whatever order concurrent calls count,
 * fail and uncount in, the money always matches the number of successful calls.
 */
import { MODERATION_LIMITS, moderationChargeForCall } from '@mediagen/core';
import { transaction, type Pool } from '../db/pool.js';
import { InsufficientCreditsError } from './charge.js';
import { changeBalance } from './ledger.js';

export interface ModerationCount {
  /** Calls counted so far, this one included. */
  calls: number;
  chargedMicro: number;
}

/** Counts one successful call; throws InsufficientCreditsError (nothing counted) when its batch cannot be paid. */
export async function countModerationCall(pool: Pool, accountId: string): Promise<ModerationCount> {
  return transaction(pool, async (tx) => {
    // Counting the call takes the row lock and reads the new count in one statement; the rest of the
    // transaction (a charge, 1 call in 10) runs under that lock, and a rollback uncounts the call.
    const { rows } = await tx.query<{ moderation_calls: number; balance_micro: number }>(
      `update accounts set moderation_calls = moderation_calls + 1 where id = $1
       returning moderation_calls, balance_micro`,
      [accountId],
    );
    const account = rows[0];
    if (!account) throw new Error(`account ${accountId} vanished`);
    const n = account.moderation_calls;
    const price = moderationChargeForCall(n);
    if (price > account.balance_micro) throw new InsufficientCreditsError(price, account.balance_micro);
    if (price > 0) {
      await changeBalance(tx, {
        accountId,
        kind: 'moderation_batch',
        amountMicro: -price,
        note: `moderation calls ${n - MODERATION_LIMITS.batchSize + 1}-${n}`,
      });
    }
    return { calls: n, chargedMicro: price };
  });
}

/**
 * Takes back one counted call that then failed (spec 4.6: failed calls do not count). If the count
 * it takes back had completed a batch, that batch's charge is refunded with a ledger row, and the
 * call that completes the batch again pays it. Called once per counted call that failed.
 */
export async function uncountModerationCall(
  pool: Pool,
  accountId: string,
): Promise<{ calls: number; refundedMicro: number }> {
  return transaction(pool, async (tx) => {
    const { rows } = await tx.query<{ moderation_calls: number }>(
      `update accounts set moderation_calls = moderation_calls - 1 where id = $1 and moderation_calls > 0
       returning moderation_calls`,
      [accountId],
    );
    const account = rows[0];
    if (!account) throw new Error(`account ${accountId} has no moderation call to take back`);
    const taken = account.moderation_calls + 1;
    const refund = moderationChargeForCall(taken);
    if (refund > 0) {
      await changeBalance(tx, {
        accountId,
        kind: 'refund',
        amountMicro: refund,
        note: `moderation calls ${taken - MODERATION_LIMITS.batchSize + 1}-${taken}: a counted call failed, the batch is not complete`,
      });
    }
    return { calls: account.moderation_calls, refundedMicro: refund };
  });
}
