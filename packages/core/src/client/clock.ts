import type { Clock } from './transport.js';

/**
 * The real clock: `Date.now()` and a `setTimeout` sleep that rejects with the signal's reason as soon as
 * the signal aborts (and at once when it is already aborted).
 *
 * The n8n node does not use this one (community nodes may not use timers); it injects a clock over
 * n8n-workflow's `sleep`.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
