import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { MediaGenClient } from '@mediagen/core';
import type { ToolContext } from './context.js';
import type { ToolExtra } from './progress.js';
import { errorResult, failure } from './results.js';

/**
 * One tool call as its body sees it: the MCP request's extra with `signal` aborted when the client
 * cancels the call or when the call's time is up (ctx.callTimeoutSeconds), and the seconds it has left.
 */
export interface ToolCall extends ToolExtra {
  secondsLeft(): number;
}

/**
 * Runs a tool body with its client; any error becomes an isError result with what to do. A call the
 * client cancelled ends quietly (the SDK sends no response to a cancelled request). A call that runs out
 * of time (an API that accepts the request and never answers, say) is stopped and answers a timeout
 * error while the client still listens: the client's own request timeout (about 60 s in Claude Desktop)
 * would otherwise cancel it without a word, and the core client's retries of a request that timed out
 * would take minutes.
 */
export async function runTool(
  ctx: ToolContext,
  tool: string,
  extra: ToolExtra,
  body: (client: MediaGenClient, call: ToolCall) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  let baseUrl = ctx.baseUrl;
  const limitMs = ctx.callTimeoutSeconds * 1000;
  const endsAt = Date.now() + limitMs;
  const deadline = AbortSignal.timeout(limitMs);
  const call: ToolCall = {
    ...extra,
    signal: AbortSignal.any([extra.signal, deadline]),
    secondsLeft: () => Math.max(0, (endsAt - Date.now()) / 1000),
  };
  try {
    const client = ctx.clientFor(extra);
    baseUrl = client.baseUrl;
    return await body(client, call);
  } catch (error) {
    if (extra.signal.aborted) return failure('Cancelled by the client.');
    if (deadline.aborted) return timedOut(ctx, tool, baseUrl);
    return errorResult(error, { tool, ...(baseUrl ? { baseUrl } : {}) });
  }
}

function timedOut(ctx: ToolContext, tool: string, baseUrl: string | undefined): CallToolResult {
  const charged = tool === 'generate' || tool === 'face_swap';
  return failure(
    `TIMEOUT: the mediagen API${baseUrl ? ` at ${baseUrl}` : ''} did not answer within ${ctx.callTimeoutSeconds} s, ` +
      `the limit of one ${tool} call (MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS).\n` +
      'What to do: the API may be overloaded or down; wait a minute and call the tool again' +
      (charged
        ? ' with the same arguments: a repeated call with the same arguments is not submitted or charged twice.'
        : '.') +
      ' If it keeps happening, check the server at MEDIAGEN_BASE_URL.',
  );
}

/**
 * The wait of one call: what the caller asked for, never more than the configured maximum, and never
 * more than the call's time left minus `reserveSeconds` (kept for reading the result after the wait).
 */
export function waitSecondsFor(
  ctx: ToolContext,
  asked: number | undefined,
  call?: Pick<ToolCall, 'secondsLeft'>,
  reserveSeconds = 5,
): number {
  const wanted = asked === undefined ? ctx.maxWaitSeconds : Math.max(0, Math.min(asked, ctx.maxWaitSeconds));
  return call ? Math.max(0, Math.min(wanted, Math.floor(call.secondsLeft() - reserveSeconds))) : wanted;
}
