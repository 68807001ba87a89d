import { z } from 'zod';
import {
  AnyAspectRatio,
  AnySecondsString,
  enumOf,
  HttpUrl,
  Prompt,
  Seed,
  typeError,
  VIDEO_RESOLUTIONS,
} from '../common.js';

export const REFERENCE_LIMITS = { images: 9, videos: 3, audios: 3 } as const;

function urlList(max: number, what: string) {
  return z
    .array(HttpUrl, { error: typeError(`must be an array of ${what} URLs`) })
    .max(max, { error: `must hold at most ${max} URLs` });
}

/** reference-to-video parameters (spec 4.2): at least one of the three reference arrays. */
export const ReferenceToVideoParams = z
  .object({
    prompt: Prompt.describe('May use @Image1, @Video1, @Audio1 to refer to the supplied media'),
    reference_images: urlList(REFERENCE_LIMITS.images, 'image').optional().describe('Up to 9 image URLs'),
    reference_videos: urlList(REFERENCE_LIMITS.videos, 'video').optional().describe('Up to 3 video URLs'),
    reference_audios: urlList(REFERENCE_LIMITS.audios, 'audio').optional().describe('Up to 3 audio URLs'),
    // Allowed durations: "not shown".
    duration: AnySecondsString.optional().describe('Length in seconds'),
    aspect_ratio: AnyAspectRatio.optional().describe('Output aspect ratio, e.g. "16:9"'),
    resolution: enumOf(VIDEO_RESOLUTIONS).optional().describe('Resolution'),
    seed: Seed.optional().describe('Extension: seed for deterministic output'),
  })
  .superRefine((value, ctx) => {
    const count =
      (value.reference_images?.length ?? 0) +
      (value.reference_videos?.length ?? 0) +
      (value.reference_audios?.length ?? 0);
    if (count === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['reference_images'],
        message: 'give at least one URL in reference_images, reference_videos or reference_audios',
      });
    }
  });
