import type { OutputType } from '../spec/common.js';

/** Recommended polling interval of GET /status/{id} per output type (spec 4.3). */
export const POLL_INTERVAL_MS: Record<OutputType, number> = {
  image: 3000,
  video: 5000,
  audio: 3000,
};

export function pollIntervalMs(type: OutputType): number {
  return POLL_INTERVAL_MS[type];
}

/**
 * Typical generation time per output type (spec 4.2), upper bound in ms. Used to pick a sensible
 * default maximum wait: a video can take 5 minutes.
 */
export const TYPICAL_MAX_GENERATION_MS: Record<OutputType, number> = {
  image: 15_000,
  video: 5 * 60_000,
  audio: 15_000,
};
