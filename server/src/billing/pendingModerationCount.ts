/**
 * One moderation call's count, taken while the call's media is classified (POST /moderation) so that
 * billing adds no time to the call. start() once the media has been read (a bad input is never
 * counted); then confirm() when the call succeeded (the count stands, or InsufficientCreditsError if
 * the batch it completes cannot be paid) or cancel() when it failed (a count that was taken is taken
 * back, refunding its batch if it had completed one). moderationBatch.ts says why this stays exact.
 */
import type { Pool } from '../db/pool.js';
import { countModerationCall, uncountModerationCall, type ModerationCount } from './moderationBatch.js';

export class PendingModerationCount {
  private counting: Promise<ModerationCount> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly accountId: string,
  ) {}

  /** Starts counting the call; later calls do nothing. */
  start(): void {
    if (this.counting) return;
    this.counting = countModerationCall(this.pool, this.accountId);
    // Observed by confirm() or cancel(); a count nobody settles yet must not be an unhandled rejection.
    this.counting.catch(() => undefined);
  }

  /** The call succeeded: its count (started now if it was not yet). */
  confirm(): Promise<ModerationCount> {
    this.start();
    return this.counting!;
  }

  /** The call failed: takes back its count if one was taken. */
  async cancel(): Promise<void> {
    if (!this.counting) return;
    const counted = await this.counting.then(
      () => true,
      () => false,
    );
    this.counting = undefined;
    if (counted) await uncountModerationCall(this.pool, this.accountId);
  }
}
