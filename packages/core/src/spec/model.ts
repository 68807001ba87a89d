import { z } from 'zod';
import { ModelType } from './common.js';

/**
 * A catalog entry (spec 2.2). Unknown fields pass through.
 *
 * Extensions sent by the reference server (optional): `description` (what the engine really is),
 * `voices` (valid voice IDs for text-to-speech models; the spec leaves them "not shown").
 */
export const Model = z.looseObject({
  slug: z.string().min(1),
  name: z.string(),
  type: ModelType,
  tasks: z.array(z.string()),
  price_from_usd: z.number().nullable(),
  description: z.string().optional(),
  voices: z.array(z.string()).optional(),
});
export type Model = z.infer<typeof Model>;

export const ModelList = z.array(Model);

/** GET /models may be cached for up to 1 hour (spec 4.1, 8). */
export const MODEL_LIST_CACHE_SECONDS = 3600;
