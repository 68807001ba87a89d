import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Generation, MediaGenClient } from '@mediagen/core';
import type { ToolContext } from './context.js';
import { generationResult } from './generationResult.js';
import type { ProgressReporter } from './progress.js';
import { waitSecondsFor, type ToolCall } from './runTool.js';
import { waitBounded } from './waitBounded.js';

/**
 * The end of generate, face_swap and get_generation: wait for the generation as long as the call's
 * wait_seconds allows and the call's time left (waitBounded.ts, runTool.ts), then answer its result
 * (generationResult.ts), with the time since the tool call started.
 */
export async function waitForResult(
  ctx: ToolContext,
  client: MediaGenClient,
  call: ToolCall,
  start: Generation | string,
  options: { waitSeconds: number | undefined; startedAt: number; progress: ProgressReporter },
): Promise<CallToolResult> {
  const maxWaitSeconds = waitSecondsFor(ctx, options.waitSeconds, call);
  const wait = await waitBounded(client, start, {
    maxWaitSeconds,
    signal: call.signal,
    progress: options.progress,
  });
  return generationResult(ctx, client, wait, {
    signal: call.signal,
    waitedSeconds: (Date.now() - options.startedAt) / 1000,
  });
}
