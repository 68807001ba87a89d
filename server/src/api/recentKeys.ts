/**
 * The API keys this process has accepted lately, by hash: a hint, never an authorisation. POST
 * /moderation uses it to start downloading an image while the key is still being checked
 * (prefetchImage.ts), which only a caller who held a working key minutes ago can cause. Every request is
 * still authenticated in PostgreSQL; a key refused there (disabled, expired, rate-limited) is forgotten
 * at once. Per process and in memory because nothing depends on it: a process that has not seen a key
 * simply does not prefetch for it.
 */

/** How long an accepted key stays a hint. */
export const RECENT_KEY_MS = 5 * 60_000;
/** Hints kept at most; the oldest go first. */
export const RECENT_KEYS_MAX = 10_000;

export class RecentKeys {
  /** Key hash (hex) -> when the hint ends; in the order they were last accepted. */
  private readonly until = new Map<string, number>();

  constructor(
    private readonly ttlMs = RECENT_KEY_MS,
    private readonly max = RECENT_KEYS_MAX,
    private readonly now: () => number = Date.now,
  ) {}

  accepted(hash: Buffer): void {
    const id = hash.toString('hex');
    this.until.delete(id);
    this.until.set(id, this.now() + this.ttlMs);
    if (this.until.size > this.max) this.until.delete(this.until.keys().next().value!);
  }

  refused(hash: Buffer): void {
    this.until.delete(hash.toString('hex'));
  }

  has(hash: Buffer): boolean {
    const id = hash.toString('hex');
    const until = this.until.get(id);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(id);
    return false;
  }
}
