/**
 * Moderation billing (spec 4.6; the price of each call is core's moderationChargeForCall): the first
 * 10 successful calls of an account are free; after that every 10 successful calls cost 1 cent
 * together, charged on the call that completes the batch. If that charge cannot be paid the call
 * answers 402 and is not counted (the same call succeeds after a top-up). Counting locks the account
 * row, so concurrent calls count one after another: none is double-counted and no batch is skipped.
 *
 * Each count, and each take-back, is one statement: the SQL functions of
 * db/migrations/0006_moderation_count_functions.sql, called with core's MODERATION_LIMITS, count the
 * call, charge or refund its batch and write the ledger row, so the account row stays locked only for
 * that statement and its commit, not across round trips to this process (a test holds them to
 * moderationChargeForCall for every call number).
 *
 * The API counts a call while its media is classified, once the media has been read (so a bad input
 * is never counted), and takes the count back with uncountModerationCall if the call fails after all.
 * Both keep one invariant at every commit: the account has paid exactly the sum of
 * moderationChargeForCall(k) for k = 1 .. moderation_calls. So whatever order concurrent calls count,
 * fail and uncount in, the money always matches the number of successful calls.
 */
import { MODERATION_LIMITS } from '@mediagen/core';
import type { Queryable } from '../db/pool.js';
import { InsufficientCreditsError } from './charge.js';

export interface ModerationCount {
  /** Calls counted so far, this one included. */
  calls: number;
  chargedMicro: number;
}

/** Core's rule, as the SQL functions take it. */
const RULE = [
  MODERATION_LIMITS.freeCalls,
  MODERATION_LIMITS.batchSize,
  MODERATION_LIMITS.batchPriceMicroUsd,
] as const;

/** Counts one successful call; throws InsufficientCreditsError (nothing counted) when its batch cannot be paid. */
export async function countModerationCall(db: Queryable, accountId: string): Promise<ModerationCount> {
  const { rows } = await db.query<{
    counted: boolean;
    calls: number;
    price_micro: number;
    balance_micro: number;
  }>('select * from mediagen_count_moderation_call($1, $2, $3, $4)', [accountId, ...RULE]);
  const r = rows[0]!;
  if (!r.counted) throw new InsufficientCreditsError(r.price_micro, r.balance_micro);
  return { calls: r.calls, chargedMicro: r.price_micro };
}

/**
 * Takes back one counted call that then failed (spec 4.6: failed calls do not count). If the count
 * it takes back had completed a batch, that batch's charge is refunded with a ledger row, and the
 * call that completes the batch again pays it. Called once per counted call that failed.
 */
export async function uncountModerationCall(
  db: Queryable,
  accountId: string,
): Promise<{ calls: number; refundedMicro: number }> {
  const { rows } = await db.query<{ calls: number; refund_micro: number }>(
    'select * from mediagen_uncount_moderation_call($1, $2, $3, $4)',
    [accountId, ...RULE],
  );
  const r = rows[0]!;
  return { calls: r.calls, refundedMicro: r.refund_micro };
}
