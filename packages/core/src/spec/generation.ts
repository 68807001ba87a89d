import { z } from 'zod';
import { GenerationStatus, OutputType } from './common.js';

/**
 * A generation (spec 2.1), returned by submit, face swap and status.
 * Unknown fields pass through (a server may send more than the spec shows).
 *
 * Extensions sent by the reference server (optional, documented in docs/api-extensions.md):
 * - `output_urls`: every output when a request produced several (text-to-image `count` > 1);
 *   `output_url` is always the first.
 * - `error_message`: why a failed generation failed.
 * - `expires_at`: when the signed output URL stops working (7 days after the generation).
 */
export const Generation = z.looseObject({
  id: z.string().min(1),
  status: GenerationStatus,
  model: z.string(),
  type: OutputType,
  output_url: z.string().nullable(),
  created_at: z.string(),
  output_urls: z.array(z.string()).optional(),
  error_message: z.string().nullable().optional(),
  expires_at: z.string().nullable().optional(),
});
export type Generation = z.infer<typeof Generation>;

/** Output URLs are valid for 7 days from generation (spec 2.1, 8). */
export const OUTPUT_URL_VALIDITY_SECONDS = 7 * 24 * 60 * 60;
