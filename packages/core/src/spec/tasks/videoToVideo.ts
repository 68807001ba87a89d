import { z } from 'zod';
import { enumOf, HttpUrl, Prompt, Seed, VIDEO_RESOLUTIONS } from '../common.js';

/** video-to-video parameters (spec 4.2). The source video's field is named `image`. */
export const VideoToVideoParams = z.object({
  prompt: Prompt.describe('Transformation description'),
  image: HttpUrl.describe('URL of the source video (the field is named image)'),
  resolution: enumOf(VIDEO_RESOLUTIONS).optional().describe('Output resolution'),
  seed: Seed.optional().describe('Extension: seed for deterministic output'),
});
