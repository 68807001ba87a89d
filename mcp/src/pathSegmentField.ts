import type { z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '@mediagen/core';

/** Longest model slug or generation id a tool accepts: far above any real one, far below URL limits. */
export const PATH_SEGMENT_MAX_LENGTH = 256;

/**
 * A core string schema that the tool puts into a URL path (generate's model, get_generation's id),
 * refused before any request when it cannot be sent: a lone UTF-16 surrogate cannot be URL-encoded
 * (the call failed with "URI malformed"), and a huge value was answered as "request headers are too
 * large", naming no argument.
 */
export function pathSegmentField(schema: z.ZodString) {
  return schema
    .max(PATH_SEGMENT_MAX_LENGTH, { error: `must be at most ${PATH_SEGMENT_MAX_LENGTH} characters` })
    .refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE });
}
