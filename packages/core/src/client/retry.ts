import type { HttpMethod } from './transport.js';

/**
 * When and how long the client retries. Defaults: up to 3 retries (4 attempts), full-jitter exponential
 * backoff from 500 ms capped at 20 s, a server's Retry-After honoured up to 60 s.
 */
export interface RetryOptions {
  /** Retries after the first attempt. 0 disables retrying. Default 3. */
  maxRetries: number;
  /** Backoff base: the cap of the first retry's delay. Default 500 ms. */
  baseDelayMs: number;
  /** Upper bound of any backoff delay. Default 20,000 ms. */
  maxDelayMs: number;
  /**
   * The longest Retry-After the client will sleep through. A 429 asking for longer is not retried: the
   * RateLimitedError (with `retryAfterMs`) goes to the caller. Default 60,000 ms.
   */
  maxRetryAfterMs: number;
  /** Random source in [0, 1) for the jitter; injectable for tests. Default Math.random. */
  random: () => number;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
};

export function resolveRetryOptions(options?: Partial<RetryOptions>): RetryOptions {
  const merged = { ...DEFAULT_RETRY_OPTIONS };
  if (options) {
    for (const [key, value] of Object.entries(options) as [keyof RetryOptions, never][]) {
      if (value !== undefined) merged[key] = value;
    }
  }
  return merged;
}

/** What went wrong on one attempt, as the retry policy sees it. */
export type AttemptOutcome =
  | { kind: 'response'; status: number }
  /** The transport failed before a response; `notSent` when the request surely never left. */
  | { kind: 'network'; notSent: boolean };

export interface RetryContext {
  method: HttpMethod;
  /**
   * The request is safe to repeat even if the server processed it: it carries an Idempotency-Key, or the
   * endpoint has no side effects (face detection is free).
   */
  idempotent: boolean;
}

/**
 * Whether an attempt that ended with `outcome` may be repeated (ignoring the attempt budget).
 *
 * - 429: always (the server refused the request, nothing was processed or charged).
 * - Network failure before the request was sent (connection refused, DNS): always.
 * - Any other network failure (reset, timeout): only GET or an idempotent request: a POST may have been
 *   processed and charged, so it is never repeated blindly.
 * - 502, 503, 504 (a proxy or the server was unavailable): only GET or an idempotent request.
 * - Everything else (4xx, 500): never; 500 is the spec's INTERNAL_ERROR, a real answer.
 */
export function isRetryable(outcome: AttemptOutcome, context: RetryContext): boolean {
  const safe = context.method === 'GET' || context.idempotent;
  if (outcome.kind === 'network') return outcome.notSent || safe;
  if (outcome.status === 429) return true;
  if (outcome.status === 502 || outcome.status === 503 || outcome.status === 504) return safe;
  return false;
}

/** Full-jitter backoff: a random delay in [0, min(maxDelay, base * 2^retry)). `retry` counts from 0. */
export function backoffDelayMs(retry: number, options: RetryOptions): number {
  const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(options.random() * cap);
}

/**
 * Parses a Retry-After header: delay-seconds (`"3"`, `"1.5"`) or an HTTP-date. Returns milliseconds from
 * `nowMs` (never negative), or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP-date always names its day and month ("Wed, 21 Oct 2015 07:28:00 GMT"); bare numbers are not dates.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * How long to wait before retry number `retry` (from 0): the server's Retry-After when it sent one,
 * else full-jitter backoff. Returns undefined when the Retry-After is longer than `maxRetryAfterMs`
 * (then the caller gets the error instead of a long silent wait).
 */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | undefined,
  options: RetryOptions,
): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= options.maxRetryAfterMs ? retryAfterMs : undefined;
  return backoffDelayMs(retry, options);
}
