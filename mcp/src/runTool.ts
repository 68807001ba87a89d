import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { MediaGenClient } from '@mediagen/core';
import type { ToolContext } from './context.js';
import type { ToolExtra } from './progress.js';
import { errorResult, failure } from './results.js';

/**
 * Runs a tool body with its client; any error becomes an isError result with what to do. A call the
 * client cancelled ends quietly (the SDK sends no response to a cancelled request).
 */
export async function runTool(
  ctx: ToolContext,
  tool: string,
  extra: ToolExtra,
  body: (client: MediaGenClient) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  let baseUrl = ctx.baseUrl;
  try {
    const client = ctx.clientFor(extra);
    baseUrl = client.baseUrl;
    return await body(client);
  } catch (error) {
    if (extra.signal.aborted) return failure('Cancelled by the client.');
    return errorResult(error, { tool, ...(baseUrl ? { baseUrl } : {}) });
  }
}

/** The wait of one call: what the caller asked for, never more than the configured maximum. */
export function waitSecondsFor(ctx: ToolContext, asked: number | undefined): number {
  return asked === undefined ? ctx.maxWaitSeconds : Math.max(0, Math.min(asked, ctx.maxWaitSeconds));
}
