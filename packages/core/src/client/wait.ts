import type { OutputType } from '../spec/common.js';
import type { Generation } from '../spec/generation.js';
import { pollIntervalMs as specPollIntervalMs } from '../rules/pollInterval.js';
import { GenerationFailedError, WaitTimeoutError } from './errors.js';
import type { Clock } from './transport.js';

export interface WaitProgress {
  generation: Generation;
  /** Polls (GET /status/{id}) made so far, this one included. */
  polls: number;
  /** Milliseconds since the wait started. */
  elapsedMs: number;
}

export interface WaitOptions {
  /** Give up after this long with a WaitTimeoutError. Default: DEFAULT_WAIT_TIMEOUT_MS for the output type. */
  timeoutMs?: number;
  /** Aborting rejects the wait with the signal's reason, also mid-sleep and mid-request. */
  signal?: AbortSignal;
  /** Time between polls. Default: the spec's interval for the output type (image 3 s, video 5 s, audio 3 s). */
  pollIntervalMs?: number;
  /**
   * Ask the server to hold each poll open until the generation finishes or N seconds pass
   * (`Prefer: wait=N`, N <= 60; a server extension). A server that ignores it is polled at the normal interval.
   */
  waitSeconds?: number;
  /** Called after every poll. */
  onProgress?: (progress: WaitProgress) => void;
}

/**
 * Default total wait per output type: a video can take 5 minutes to generate (spec 4.2), so 10 minutes;
 * images and audio take 3 to 15 seconds, so 2 minutes.
 */
export const DEFAULT_WAIT_TIMEOUT_MS: Record<OutputType, number> = {
  image: 2 * 60_000,
  video: 10 * 60_000,
  audio: 2 * 60_000,
};

/** Largest N the client sends in `Prefer: wait=N`. */
export const MAX_PREFER_WAIT_SECONDS = 60;

export interface WaitDeps {
  clock: Clock;
  /** One poll: GET /status/{id}. `requestId` is the response's x-request-id, when present. */
  poll(
    id: string,
    options: { waitSeconds?: number; signal?: AbortSignal },
  ): Promise<{ generation: Generation; requestId?: string }>;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

/**
 * Polls until the generation is `completed` (resolves with it) or `failed` (GenerationFailedError carrying
 * it), or until `timeoutMs` passes (WaitTimeoutError carrying the last generation seen).
 *
 * Given a Generation (e.g. just returned by submit) the first poll comes after one interval, or at once
 * with `waitSeconds`; given an id, the first poll is immediate. A terminal Generation is settled without
 * polling. The poll made when the deadline is reached is the last one.
 */
export async function waitForGeneration(
  deps: WaitDeps,
  idOrGeneration: string | Generation,
  options: WaitOptions = {},
): Promise<Generation> {
  const clock = deps.clock;
  const signal = options.signal;
  const start = clock.now();
  let polls = 0;
  let requestId: string | undefined;
  let generation: Generation | undefined = typeof idOrGeneration === 'string' ? undefined : idOrGeneration;
  const id = typeof idOrGeneration === 'string' ? idOrGeneration : idOrGeneration.id;
  const waitSeconds =
    options.waitSeconds !== undefined && options.waitSeconds > 0
      ? Math.min(MAX_PREFER_WAIT_SECONDS, Math.ceil(options.waitSeconds))
      : undefined;

  const timeoutFor = (type: OutputType) => options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS[type];
  const intervalFor = (type: OutputType) => options.pollIntervalMs ?? specPollIntervalMs(type);

  throwIfAborted(signal);
  let lastPollMs = 0;
  for (;;) {
    if (generation) {
      if (generation.status === 'completed') return generation;
      if (generation.status === 'failed') throw new GenerationFailedError(generation, requestId);
      const elapsed = clock.now() - start;
      const remaining = timeoutFor(generation.type) - elapsed;
      if (remaining <= 0) {
        throw new WaitTimeoutError(generation, {
          timeoutMs: timeoutFor(generation.type),
          polls,
          elapsedMs: elapsed,
          ...(requestId ? { requestId } : {}),
        });
      }
      // With Prefer: wait the server already held the last poll open; sleep only what is left of the
      // interval, so a server that ignores the header is still polled at the spec's pace.
      const interval = intervalFor(generation.type);
      const pause =
        waitSeconds !== undefined ? (polls === 0 ? 0 : Math.max(0, interval - lastPollMs)) : interval;
      const sleepMs = Math.min(pause, remaining);
      if (sleepMs > 0) await clock.sleep(sleepMs, signal);
      throwIfAborted(signal);
    }

    const remainingSeconds = generation
      ? Math.ceil((timeoutFor(generation.type) - (clock.now() - start)) / 1000)
      : Math.ceil((options.timeoutMs ?? MAX_PREFER_WAIT_SECONDS * 1000) / 1000);
    const pollWait =
      waitSeconds !== undefined ? Math.max(1, Math.min(waitSeconds, remainingSeconds)) : undefined;
    const pollStart = clock.now();
    const result = await deps.poll(id, {
      ...(pollWait !== undefined ? { waitSeconds: pollWait } : {}),
      ...(signal ? { signal } : {}),
    });
    lastPollMs = clock.now() - pollStart;
    polls += 1;
    generation = result.generation;
    requestId = result.requestId;
    options.onProgress?.({ generation, polls, elapsedMs: clock.now() - start });
  }
}
