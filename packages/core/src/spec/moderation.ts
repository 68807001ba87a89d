import { z } from 'zod';
import { HttpUrl, typeError } from './common.js';

export const MODERATION_POLICIES = ['nsfw', 'violence', 'hate'] as const;
export const ModerationPolicy = z.enum(MODERATION_POLICIES, {
  error: typeError('must be one of "nsfw", "violence", "hate"'),
});
export type ModerationPolicy = z.infer<typeof ModerationPolicy>;

/** Limits of spec 4.6 and 8. */
export const MODERATION_LIMITS = {
  textMaxLength: 20_000,
  thresholdMin: 0,
  thresholdMax: 1,
  thresholdDefault: 0.5,
  maxFramesMin: 1,
  maxFramesMax: 16,
  maxFramesDefault: 8,
  videoMaxBytes: 200 * 1024 * 1024,
  freeCalls: 10,
  batchSize: 10,
  batchPriceMicroUsd: 10_000,
} as const;

const L = MODERATION_LIMITS;

const ModerationFields = z.object({
  image_url: HttpUrl.optional(),
  video_url: HttpUrl.optional(),
  text: z
    .string({ error: typeError('must be a string') })
    .min(1, { error: 'must not be empty' })
    .max(L.textMaxLength, { error: `must be at most ${L.textMaxLength} characters` })
    .optional(),
  policy: ModerationPolicy.default('nsfw'),
  threshold: z
    .number({ error: typeError('must be a number') })
    .min(L.thresholdMin, { error: `must be at least ${L.thresholdMin}` })
    .max(L.thresholdMax, { error: `must be at most ${L.thresholdMax}` })
    .default(L.thresholdDefault),
  max_frames: z
    .number({ error: typeError('must be a number') })
    .int({ error: 'must be an integer' })
    .min(L.maxFramesMin, { error: `must be at least ${L.maxFramesMin}` })
    .max(L.maxFramesMax, { error: `must be at most ${L.maxFramesMax}` })
    .default(L.maxFramesDefault),
});

/** POST /moderation body (spec 4.6): exactly one of image_url, video_url, text. */
export const ModerationRequest = ModerationFields.superRefine((value, ctx) => {
  const given = (['image_url', 'video_url', 'text'] as const).filter((k) => value[k] !== undefined);
  if (given.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: given.length === 0 ? [] : [given[1]!],
      message:
        given.length === 0
          ? 'send exactly one of image_url, video_url, text (none was given)'
          : `send exactly one of image_url, video_url, text (got ${given.join(' and ')})`,
    });
  }
});
export type ModerationRequest = z.input<typeof ModerationRequest>;
export type ModerationRequestParsed = z.output<typeof ModerationRequest>;

/** The kind of content a moderation request carries. */
export function moderationMediaType(request: ModerationRequestParsed): 'image' | 'video' | 'text' {
  if (request.image_url !== undefined) return 'image';
  if (request.video_url !== undefined) return 'video';
  return 'text';
}

const Score = z.number().min(0).max(1);

const ModerationCommon = {
  nsfw: z.boolean(),
  score: Score,
  threshold: Score,
  policy: z.string(),
  duration_ms: z.number().min(0),
};

/** Image and text result (spec 2.4): no frames. */
export const ModerationResultImageText = z.looseObject({
  ...ModerationCommon,
  media_type: z.enum(['image', 'text']),
});

export const ModerationFrame = z.looseObject({ timestamp: z.number().min(0), score: Score });
export type ModerationFrame = z.infer<typeof ModerationFrame>;

/** Video result (spec 2.4): adds frames_checked and frames. */
export const ModerationResultVideo = z.looseObject({
  ...ModerationCommon,
  media_type: z.literal('video'),
  frames_checked: z.number().int().min(0),
  frames: z.array(ModerationFrame),
});

export const ModerationResult = z.discriminatedUnion('media_type', [
  ModerationResultImageText,
  ModerationResultVideo,
]);
export type ModerationResult = z.infer<typeof ModerationResult>;
