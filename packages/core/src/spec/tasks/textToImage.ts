import { z } from 'zod';
import {
  enumOf,
  IMAGE_ASPECT_RATIOS,
  IMAGE_OUTPUT_FORMATS,
  IMAGE_RESOLUTIONS,
  Prompt,
  QUALITIES,
  Seed,
  typeError,
} from '../common.js';

export const TEXT_TO_IMAGE_COUNT = { min: 1, max: 4, default: 1 } as const;

/** text-to-image parameters (spec 4.2). */
export const TextToImageParams = z.object({
  prompt: Prompt.describe('Text description of the image'),
  aspect_ratio: enumOf(IMAGE_ASPECT_RATIOS).optional().describe('Aspect ratio of the image'),
  resolution: enumOf(IMAGE_RESOLUTIONS).default('1k').describe('Resolution: 1k, 2k or 4k'),
  quality: enumOf(QUALITIES).optional().describe('Quality; applies to GPT Image models only'),
  count: z
    .number({ error: typeError('must be a number') })
    .int({ error: 'must be an integer' })
    .min(TEXT_TO_IMAGE_COUNT.min, { error: `must be at least ${TEXT_TO_IMAGE_COUNT.min}` })
    .max(TEXT_TO_IMAGE_COUNT.max, { error: `must be at most ${TEXT_TO_IMAGE_COUNT.max}` })
    .default(TEXT_TO_IMAGE_COUNT.default)
    .describe('Number of images, 1 to 4'),
  // Default output_format when omitted: "not shown (varies by model)".
  output_format: enumOf(IMAGE_OUTPUT_FORMATS).optional().describe('Image file format'),
  seed: Seed.optional().describe('Extension: seed for deterministic output'),
});
