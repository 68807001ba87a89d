import { z } from 'zod';

/** The output types a generation can have (spec 2.1 `type`). */
export const OutputType = z.enum(['image', 'video', 'audio']);
export type OutputType = z.infer<typeof OutputType>;

/** The catalog entry types (spec 2.2 `type`). */
export const ModelType = z.enum(['image', 'video', 'audio', 'face-swap', 'moderation']);
export type ModelType = z.infer<typeof ModelType>;

/** Generation states (spec 3). */
export const GenerationStatus = z.enum(['queued', 'processing', 'completed', 'failed']);
export type GenerationStatus = z.infer<typeof GenerationStatus>;

/** States after which a generation never changes again. */
export const TERMINAL_STATUSES: readonly GenerationStatus[] = ['completed', 'failed'];

/**
 * The error of a type check: `is required` when the value is missing, else `message`. zod 4 drops an
 * issue's input from the final error unless asked, so the missing-or-wrong decision is made here, where
 * the input is still known; `formatValidationError` then prints the message as is.
 */
export function typeError(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : message);
}

/**
 * Text a server can keep as it is. PostgreSQL's text and jsonb cannot hold NUL (U+0000) nor an
 * unpaired UTF-16 surrogate (a JSON "\ud800" alone), so a request carrying one must be a 400 naming the
 * field, not a 500 from the database (and, with submits committed in groups, not the failure of
 * other people's submits in the same transaction).
 */
export function isStorableText(value: string): boolean {
  return (
    !value.includes('\u0000') &&
    !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)
  );
}
export const UNSTORABLE_TEXT_MESSAGE =
  'must not contain NUL (\\u0000) characters or unpaired UTF-16 surrogates';

/**
 * A public media URL (spec 4.2 "Input media rules", 4.6 rule 7): http or https only.
 * Data URIs and file uploads are not accepted.
 */
export const HttpUrl = z
  .string({ error: typeError('must be a string holding an http(s) URL') })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(4096, { error: 'must be at most 4096 characters' })
  .refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: 'must be a public http(s) URL (data URIs and file uploads are not accepted)' },
  )
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.username === '' && url.password === '';
      } catch {
        return true; // reported by the refinement above
      }
    },
    { error: 'must not carry a user name or password (the URL must be public)' },
  )
  // The refinements above, as JSON Schema (OpenAPI document, MCP tool schemas).
  .meta({ format: 'uri', pattern: '^[hH][tT][tT][pP][sS]?://' });

/** A non-empty prompt. The spec states no maximum; 10,000 characters keeps rows and logs sane. */
export const PROMPT_MAX_LENGTH = 10_000;
export const Prompt = z
  .string({ error: typeError('must be a string') })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(PROMPT_MAX_LENGTH, { error: `must be at most ${PROMPT_MAX_LENGTH} characters` })
  .refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE });

/**
 * Extension (not in the spec): an optional seed. The reference server's engines are deterministic for
 * the same request and seed; other servers may ignore it.
 */
export const Seed = z
  .number({ error: typeError('must be a number') })
  .int({ error: 'must be an integer' })
  .min(0, { error: 'must be at least 0' })
  .max(2_147_483_647, { error: 'must be at most 2147483647' });

/**
 * Durations are strings of whole seconds in the spec ("5"). Numbers (5) are accepted and turned into
 * strings, so that callers building JSON by hand are not punished for a missing pair of quotes.
 */
export function secondsString<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z.preprocess(
    (value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value),
    z.enum(allowed, {
      error: typeError(`must be one of ${allowed.map((v) => `"${v}"`).join(', ')} (seconds)`),
    }),
  );
}

/** A duration in whole seconds where the spec does not list the allowed values ("not shown"). */
export const AnySecondsString = z.preprocess(
  (value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value),
  z
    .string({ error: typeError('must be a string of whole seconds, e.g. "5"') })
    .regex(/^[1-9]\d{0,3}$/, { error: 'must be a whole number of seconds from 1 to 9999, e.g. "5"' }),
);

export function enumOf<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z.enum(allowed, { error: typeError(`must be one of ${allowed.map((v) => `"${v}"`).join(', ')}`) });
}

/** Aspect ratios where the spec says only "Output aspect ratio": any W:H of small whole numbers. */
export const AnyAspectRatio = z
  .string({ error: typeError('must be a string such as "16:9"') })
  .regex(/^[1-9]\d?:[1-9]\d?$/, { error: 'must be an aspect ratio such as "16:9" or "1:1"' });

export const IMAGE_ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4'] as const;
export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;
export const IMAGE_RESOLUTIONS = ['1k', '2k', '4k'] as const;
export const VIDEO_RESOLUTIONS = ['480p', '720p', '1080p', '4k'] as const;
export const QUALITIES = ['low', 'medium', 'high'] as const;
export const IMAGE_OUTPUT_FORMATS = ['png', 'jpeg', 'webp'] as const;

/** Supported input media formats (spec 4.2 "Input media rules"), by file extension. */
export const INPUT_MEDIA_FORMATS = {
  image: ['jpg', 'jpeg', 'png', 'webp', 'gif'],
  video: ['mp4', 'webm', 'mkv'],
  audio: ['mp3', 'wav', 'm4a'],
} as const;
