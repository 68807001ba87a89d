/** GET /models (spec 4.1): the catalog, cacheable for an hour. */
import { MODEL_LIST_CACHE_SECONDS, type Model } from '@mediagen/core';
import type { RequestHandler } from 'express';
import { faceSwapPriceFromUsd, priceFromUsd } from '../../billing/pricing.js';
import type { AppContext } from '../../context.js';
import { builtInVoices } from '../../engines/registry.js';
import { route } from '../errors.js';

export async function catalogModels(ctx: AppContext): Promise<Model[]> {
  const voices = await builtInVoices().catch(() => undefined);
  const models: Model[] = ctx.catalog.models.map((m) => {
    const model: Model = {
      slug: m.slug,
      name: m.name,
      type: m.type,
      tasks: Object.keys(m.tasks),
      price_from_usd: priceFromUsd(m),
    };
    if (m.description) model.description = m.description;
    if (m.tasks['text-to-speech']) {
      const list =
        m.voices ?? (engineIsBuiltIn(m.tasks['text-to-speech'].engine ?? m.engine) ? voices : undefined);
      if (list) model.voices = list;
    }
    return model;
  });
  const fs = ctx.catalog.faceSwap;
  models.push({
    slug: fs.slug,
    name: fs.name,
    type: 'face-swap',
    tasks: fs.tasks,
    price_from_usd: faceSwapPriceFromUsd(fs),
    ...(fs.description ? { description: fs.description } : {}),
  });
  const mod = ctx.catalog.moderation;
  models.push({
    slug: mod.slug,
    name: mod.name,
    type: 'moderation',
    tasks: [mod.slug],
    price_from_usd: 0,
    ...(mod.description ? { description: mod.description } : {}),
  });
  return models;
}

function engineIsBuiltIn(engine: string | undefined): boolean {
  return engine !== undefined && engine !== 'gateway';
}

export function listModels(ctx: AppContext): RequestHandler {
  return route(async (_req, res) => {
    const data = await catalogModels(ctx);
    res.setHeader('Cache-Control', `public, max-age=${MODEL_LIST_CACHE_SECONDS}`);
    res.json({ success: true, data });
  });
}
