import { WaitTimeoutError, type Generation, type MediaGenClient } from '@mediagen/core';
import type { ProgressReporter } from './progress.js';

export interface BoundedWait {
  /** The last state seen: completed, failed, or still queued/processing when the wait ran out. */
  generation: Generation;
  /** True when the generation reached a terminal state within the wait. */
  settled: boolean;
}

/**
 * Waits for a generation at most `maxWaitSeconds`, polling GET /status/{id} at the spec's interval for
 * its type (image 3 s, video 5 s, audio 3 s, through the core client's waitForGeneration), sending a
 * progress notification after every poll. When the time is up it returns the generation as it is, so
 * the tool can hand over to get_generation instead of running into the client's own timeout (Claude
 * Desktop cancels a call after about 60 s). Aborting `signal` (the client cancelled the call) stops
 * the wait at once and rejects with the signal's reason.
 */
export async function waitBounded(
  client: MediaGenClient,
  start: Generation | string,
  options: { maxWaitSeconds: number; signal: AbortSignal; progress: ProgressReporter },
): Promise<BoundedWait> {
  const { progress, signal } = options;
  if (typeof start !== 'string' && (start.status === 'completed' || start.status === 'failed')) {
    return { generation: start, settled: true };
  }
  if (options.maxWaitSeconds <= 0) {
    const generation = typeof start === 'string' ? await client.getGeneration(start, { signal }) : start;
    return { generation, settled: generation.status === 'completed' || generation.status === 'failed' };
  }
  const timeoutMs = options.maxWaitSeconds * 1000;
  try {
    const generation = await client.waitForGeneration(start, {
      timeoutMs,
      signal,
      onProgress: ({ generation, polls, elapsedMs }) => {
        void progress.report(
          `generation ${generation.id} is ${generation.status} after ${Math.round(elapsedMs / 1000)} s (poll ${polls})`,
        );
      },
    });
    return { generation, settled: true };
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    if (error instanceof WaitTimeoutError) return { generation: error.generation, settled: false };
    const failed = (error as { generation?: Generation }).generation;
    if (failed && failed.status === 'failed') return { generation: failed, settled: true };
    throw error;
  }
}
