import { z } from 'zod';
import {
  AnyAspectRatio,
  enumOf,
  HttpUrl,
  IMAGE_OUTPUT_FORMATS,
  IMAGE_RESOLUTIONS,
  Prompt,
  QUALITIES,
  Seed,
} from '../common.js';

/** image-to-image parameters (spec 4.2). */
export const ImageToImageParams = z.object({
  prompt: Prompt.describe('Edit instruction or target description'),
  image: HttpUrl.describe('URL of the input image'),
  // Allowed values: "Output aspect ratio" (not enumerated by the spec).
  aspect_ratio: AnyAspectRatio.optional().describe('Output aspect ratio, e.g. "16:9"'),
  resolution: enumOf(IMAGE_RESOLUTIONS).optional().describe('Resolution: 1k, 2k or 4k'),
  quality: enumOf(QUALITIES).optional().describe('Quality; applies to GPT Image models only'),
  output_format: enumOf(IMAGE_OUTPUT_FORMATS).optional().describe('Image file format'),
  seed: Seed.optional().describe('Extension: seed for deterministic output'),
});
