import { z } from 'zod';
import {
  AnyAspectRatio,
  AnySecondsString,
  enumOf,
  HttpUrl,
  Prompt,
  Seed,
  VIDEO_RESOLUTIONS,
} from '../common.js';

/** image-to-video parameters (spec 4.2). Allowed durations: "not shown". */
export const ImageToVideoParams = z.object({
  image: HttpUrl.describe('URL of the source image'),
  prompt: Prompt.optional().describe('Motion description'),
  duration: AnySecondsString.default('5').describe('Length in seconds'),
  aspect_ratio: AnyAspectRatio.optional().describe('Output aspect ratio, e.g. "16:9"'),
  resolution: enumOf(VIDEO_RESOLUTIONS).default('720p').describe('Resolution'),
  seed: Seed.optional().describe('Extension: seed for deterministic output'),
});
