import { z } from 'zod';
import { AnySecondsString, HttpUrl, Prompt, Seed } from '../common.js';

/** video-extend parameters (spec 4.2). The video's field is named `image`; durations "not shown". */
export const VideoExtendParams = z.object({
  image: HttpUrl.describe('URL of the video to extend (the field is named image)'),
  prompt: Prompt.optional().describe('How to continue'),
  duration: AnySecondsString.optional().describe('Additional seconds'),
  seed: Seed.optional().describe('Extension: seed for deterministic output'),
});
