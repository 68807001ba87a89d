import { z } from 'zod';

/** Every successful response: `{success: true, data}` (spec intro). */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.looseObject({ success: z.literal(true), data });
}

export type SuccessEnvelope<T> = { success: true; data: T };
