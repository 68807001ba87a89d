import { MODERATION_LIMITS } from '../spec/moderation.js';

/**
 * The price of the `n`-th successful moderation call of an account (1-based), in micro-dollars
 * (spec 4.6): the first `freeCalls` are free; after that every `batchSize` calls cost
 * `batchPriceMicroUsd` together, charged on the call that completes the batch; every other call is 0.
 */
export function moderationChargeForCall(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1)
    throw new RangeError(`call number must be a positive integer, got ${n}`);
  const L = MODERATION_LIMITS;
  if (n <= L.freeCalls) return 0;
  return (n - L.freeCalls) % L.batchSize === 0 ? L.batchPriceMicroUsd : 0;
}
