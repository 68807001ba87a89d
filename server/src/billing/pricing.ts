/**
 * What a request costs, from the catalog's pricing (integer micro-dollars), and the catalog's
 * lowest price per model (`price_from_usd`, spec 2.2).
 */
import type { TaskName } from '@mediagen/core';
import type { FaceSwapEntry, GenerationModelEntry, Pricing, TaskEntry } from '../catalog/catalog.js';

export const MICRO_PER_USD = 1_000_000;

export function usdToMicro(usd: number): number {
  return Math.round(usd * MICRO_PER_USD);
}

export function microToUsd(micro: number): number {
  return micro / MICRO_PER_USD;
}

/** A request the catalog's pricing cannot price: a 400 naming the field. */
export class PricingError extends Error {
  override name = 'PricingError';
}

function secondsOf(entry: TaskEntry, params: Record<string, unknown>): number {
  const given = params.duration;
  return Number(typeof given === 'string' ? given : (entry.default_duration ?? '5'));
}

/** The spec's default video resolution, used for pricing when a request gives none. */
export const DEFAULT_VIDEO_RESOLUTION = '720p';

function perSecondRate(
  pricing: Extract<Pricing, { per_second_usd: unknown }>,
  resolution: unknown,
  entry: TaskEntry,
): number {
  const rate = pricing.per_second_usd;
  if (typeof rate === 'number') return rate;
  const key =
    typeof resolution === 'string' ? resolution : (entry.default_resolution ?? DEFAULT_VIDEO_RESOLUTION);
  const value = rate[key] ?? rate.default;
  if (value === undefined) {
    throw new PricingError(
      `resolution: this model offers ${Object.keys(rate)
        .filter((k) => k !== 'default')
        .map((k) => `"${k}"`)
        .join(', ')}`,
    );
  }
  return value;
}

/** The price of one request in micro-dollars. Params are the schema's parsed (defaulted) output. */
export function priceMicro(
  model: GenerationModelEntry,
  task: TaskName,
  params: Record<string, unknown>,
): number {
  const entry = model.tasks[task];
  if (!entry) throw new PricingError(`model "${model.slug}" does not support task "${task}"`);
  const p = entry.pricing;
  if ('per_request_usd' in p) return usdToMicro(p.per_request_usd);
  if ('per_output_usd' in p) {
    const count = typeof params.count === 'number' ? params.count : 1;
    return usdToMicro(p.per_output_usd) * count;
  }
  return usdToMicro(perSecondRate(p, params.resolution, entry) * secondsOf(entry, params));
}

/** The lowest price of one task in USD. */
function lowestTaskUsd(entry: TaskEntry): number {
  const p = entry.pricing;
  if ('per_request_usd' in p) return p.per_request_usd;
  if ('per_output_usd' in p) return p.per_output_usd;
  const rate =
    typeof p.per_second_usd === 'number' ? p.per_second_usd : Math.min(...Object.values(p.per_second_usd));
  const seconds = entry.durations
    ? Math.min(...entry.durations.map(Number))
    : Number(entry.default_duration ?? '5');
  return rate * seconds;
}

/** `price_from_usd` of a generation model: the lowest price over its tasks. */
export function priceFromUsd(model: GenerationModelEntry): number | null {
  const prices = Object.values(model.tasks).map(lowestTaskUsd);
  if (prices.length === 0) return null;
  return microToUsd(usdToMicro(Math.min(...prices)));
}

/** Face swap price (spec 4.5): fixed for an image target, by duration for a video target. */
export function faceSwapPriceMicro(
  entry: FaceSwapEntry,
  target: { type: 'image' | 'video'; seconds: number },
): number {
  if (target.type === 'image') return usdToMicro(entry.pricing.image_usd);
  return usdToMicro(entry.pricing.video_per_second_usd * Math.max(1, Math.ceil(target.seconds)));
}

export function faceSwapPriceFromUsd(entry: FaceSwapEntry): number {
  return Math.min(entry.pricing.image_usd, entry.pricing.video_per_second_usd);
}
