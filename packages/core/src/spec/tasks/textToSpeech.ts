import { z } from 'zod';
import { isStorableText, Prompt, typeError, UNSTORABLE_TEXT_MESSAGE } from '../common.js';

/** text-to-speech parameters (spec 4.2). The set of valid voices depends on the model ("not shown"). */
export const TextToSpeechParams = z.object({
  prompt: Prompt.describe('Text to speak'),
  voice: z
    .string({ error: typeError('must be a string (a voice ID from the model catalog)') })
    .min(1, { error: 'must not be empty' })
    .max(100, { error: 'must be at most 100 characters' })
    .refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE })
    .optional()
    .describe('Voice ID (see the model catalog)'),
});
