import { z } from 'zod';
import type { ToolContext } from './context.js';

/**
 * The wait_seconds input shared by generate, face_swap and get_generation: how long the call waits
 * for the generation to finish (bounded by the server's configured maximum, see waitSecondsFor).
 * `atZero` says what 0 means for the tool.
 */
export function waitSecondsField(ctx: ToolContext, atZero: string) {
  return z
    .number()
    .min(0)
    .optional()
    .describe(
      `How long to wait for the result, in seconds (0 = ${atZero}). Default and maximum ${ctx.maxWaitSeconds}.`,
    );
}
