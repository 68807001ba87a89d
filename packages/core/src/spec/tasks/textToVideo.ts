import { z } from 'zod';
import { enumOf, Prompt, secondsString, Seed, VIDEO_ASPECT_RATIOS, VIDEO_RESOLUTIONS } from '../common.js';

export const TEXT_TO_VIDEO_DURATIONS = ['4', '5', '6', '8', '10', '12', '15'] as const;

/** text-to-video parameters (spec 4.2). */
export const TextToVideoParams = z.object({
  prompt: Prompt.describe('Text description of the video'),
  duration: secondsString(TEXT_TO_VIDEO_DURATIONS).default('5').describe('Length in seconds'),
  aspect_ratio: enumOf(VIDEO_ASPECT_RATIOS).optional().describe('Aspect ratio of the video'),
  resolution: enumOf(VIDEO_RESOLUTIONS).default('720p').describe('Resolution'),
  seed: Seed.optional().describe('Extension: seed for deterministic output'),
});
