import type { Generation, MediaGenClient } from '@mediagen/core';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** Default Max Wait: 10 minutes, enough for a video (spec 4.2: 30 s to 5 min) with room to spare. */
export const DEFAULT_MAX_WAIT_SECONDS = 600;

/** The options shared by Generate and Swap Face that decide whether and how long to wait. */
export const waitOptions: INodeProperties[] = [
  {
    displayName: 'Wait for Completion',
    name: 'waitForCompletion',
    type: 'boolean',
    default: true,
    description:
      'Whether to wait until the output is ready. Off: return the queued generation at once (use Generation > Get with its ID later).',
  },
  {
    displayName: 'Max Wait (Seconds)',
    name: 'maxWaitSeconds',
    type: 'number',
    typeOptions: { minValue: 1 },
    default: DEFAULT_MAX_WAIT_SECONDS,
    description:
      'Give up waiting after this many seconds (the generation keeps running and can be fetched later). Images and audio take 3 to 15 s, videos 30 s to 5 min.',
  },
];

/**
 * Whether to wait, and for how long, from an operation's `options` collection. Called before the
 * (charged) submit, so a Max Wait that is not a positive number is refused before anything is charged
 * rather than silently replaced by the default.
 */
export function waitSettings(options: IDataObject): { wait: boolean; maxWaitMs: number } {
  const wait = options.waitForCompletion !== false;
  const raw = options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS;
  const seconds = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
  if (wait && (raw === '' || !Number.isFinite(seconds) || seconds <= 0)) {
    throw new Error(
      `Options > Max Wait (Seconds) must be a number of seconds of at least 1 (got ${JSON.stringify(raw)})`,
    );
  }
  return { wait, maxWaitMs: (wait ? seconds : DEFAULT_MAX_WAIT_SECONDS) * 1000 };
}

/**
 * Polls a submitted generation until it completes, fails or the Max Wait passes, at the spec's interval
 * for its type (image and audio 3 s, video 5 s: core's waitForGeneration decides). The sleep between
 * polls is n8n-workflow's `sleep` (the client's clock) and stops at once when the execution is cancelled.
 */
export async function pollUntilDone(
  this: IExecuteFunctions,
  client: MediaGenClient,
  generation: Generation,
  maxWaitMs: number,
): Promise<Generation> {
  const signal = this.getExecutionCancelSignal();
  return client.waitForGeneration(generation, {
    timeoutMs: maxWaitMs,
    ...(signal ? { signal } : {}),
  });
}
