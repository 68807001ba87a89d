/** Catalog pricing and configuration, as pure functions (the moderation batch rule is core's, tested there). */
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../dist/catalog/catalog.js';
import { faceSwapPriceMicro, priceFromUsd, priceMicro } from '../../dist/billing/pricing.js';
import { loadConfig } from '../../dist/config.js';

const catalog = parseCatalog({
  models: [
    {
      slug: 'img',
      name: 'Img',
      type: 'image',
      engine: 'image/textToImage',
      tasks: { 'text-to-image': { pricing: { per_output_usd: 0.02 } } },
    },
    {
      slug: 'vid',
      name: 'Vid',
      type: 'video',
      engine: 'video/textToVideo',
      tasks: {
        'text-to-video': { pricing: { per_second_usd: { '480p': 0.01, '720p': 0.02 } } },
        'image-to-video': { durations: ['6', '8'], pricing: { per_second_usd: 0.03 } },
      },
    },
    {
      slug: 'fs',
      name: 'FS',
      type: 'face-swap',
      tasks: ['face-swap'],
      pricing: { image_usd: 0.05, video_per_second_usd: 0.01 },
    },
    { slug: 'mod', name: 'Mod', type: 'moderation' },
  ],
});

describe('pricing', () => {
  it('per image times count; per second by resolution; lowest price', () => {
    const img = catalog.bySlug.get('img')!;
    const vid = catalog.bySlug.get('vid')!;
    expect(priceMicro(img, 'text-to-image', { count: 3 })).toBe(60_000);
    expect(priceMicro(vid, 'text-to-video', { duration: '10', resolution: '480p' })).toBe(100_000);
    expect(priceMicro(vid, 'text-to-video', { duration: '5' })).toBe(100_000); // 720p by default
    expect(() => priceMicro(vid, 'text-to-video', { duration: '5', resolution: '4k' })).toThrow(/resolution/);
    expect(priceFromUsd(vid)).toBe(0.05); // min(480p x 5 s default, 0.03 x 6 s)
    expect(priceFromUsd(img)).toBe(0.02);
    expect(faceSwapPriceMicro(catalog.faceSwap, { type: 'image', seconds: 0 })).toBe(50_000);
    expect(faceSwapPriceMicro(catalog.faceSwap, { type: 'video', seconds: 2.2 })).toBe(30_000);
  });

  it('rejects a catalog without the face-swap or moderation entry, or with an unknown task', () => {
    expect(() => parseCatalog({ models: [] })).toThrow(/face-swap/);
    expect(() =>
      parseCatalog({
        models: [
          {
            slug: 'x',
            name: 'X',
            type: 'image',
            engine: 'e',
            tasks: { 'text-to-3d': { pricing: { per_request_usd: 1 } } },
          },
        ],
      }),
    ).toThrow(/unknown task "text-to-3d"/);
  });
});

describe('configuration', () => {
  it('parses rate limits and names bad variables', () => {
    expect(loadConfig({ MEDIAGEN_RATE_LIMIT: '600/m' }).rateLimit).toEqual({ perSecond: 10, burst: 20 });
    expect(loadConfig({ MEDIAGEN_RATE_LIMIT: '5/s,burst=9' }).rateLimit).toEqual({ perSecond: 5, burst: 9 });
    expect(loadConfig({ MEDIAGEN_RATE_LIMIT: 'off' }).rateLimit).toBeNull();
    expect(() => loadConfig({ PORT: '99999', MEDIAGEN_SIGNING_SECRET: 'short' })).toThrow(
      /PORT: must be between 0 and 65535[\s\S]*MEDIAGEN_SIGNING_SECRET: must be at least 32 characters/,
    );
  });
});
