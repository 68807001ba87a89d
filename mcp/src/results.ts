import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { MediaGenError, mimeTypeForExtension, RateLimitedError, type Generation } from '@mediagen/core';

/**
 * Tool results, one shape for every tool:
 * - `structuredContent`: the object the tool's outputSchema declares (validated by the SDK);
 * - the same object as JSON text, for clients that read only text;
 * - optional sentences for the assistant (what to do next);
 * - a `resource_link` per output file (uri = output URL, with its MIME type): never the file itself;
 * - optionally one small preview image (see preview.ts), never the full file as base64.
 *
 * Failures are `isError` results whose text holds the API's message and what to do about it. They carry
 * no structuredContent (a client validates structuredContent against the outputSchema).
 */
export function success(
  structured: Record<string, unknown>,
  extra: { notes?: string[]; links?: ContentBlock[]; preview?: ContentBlock } = {},
): CallToolResult {
  const content: ContentBlock[] = [{ type: 'text', text: JSON.stringify(structured, null, 2) }];
  for (const note of extra.notes ?? []) content.push({ type: 'text', text: note });
  content.push(...(extra.links ?? []));
  if (extra.preview) content.push(extra.preview);
  return { structuredContent: structured, content };
}

export function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

const TYPE_FALLBACK: Record<string, string> = {
  image: 'image/png',
  video: 'video/mp4',
  audio: 'audio/mpeg',
};

/** The MIME type of an output URL, from its file extension (signed URLs keep the file name), else by type. */
export function mimeTypeOf(url: string, type: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not absolute: use as is
  }
  const ext = /\.([a-z0-9]{2,5})$/i.exec(path)?.[1]?.toLowerCase();
  return (ext && mimeTypeForExtension(ext)) ?? TYPE_FALLBACK[type] ?? 'application/octet-stream';
}

function fileNameOf(url: string, fallback: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).at(-1);
    if (last) return decodeURIComponent(last);
  } catch {
    // ignore
  }
  return fallback;
}

/** A resource_link for each output of a completed generation (several when text-to-image count > 1). */
export function outputLinks(generation: Generation): ContentBlock[] {
  const urls = generation.output_urls?.length
    ? generation.output_urls
    : generation.output_url
      ? [generation.output_url]
      : [];
  return urls.map((uri, index) => ({
    type: 'resource_link' as const,
    uri,
    name: fileNameOf(uri, `${generation.id}-${index + 1}`),
    title: `${generation.model} ${generation.type} output${urls.length > 1 ? ` ${index + 1} of ${urls.length}` : ''}`,
    description:
      `Output of generation ${generation.id}` +
      (generation.expires_at
        ? `; the link works until ${generation.expires_at}`
        : '; the link works for 7 days'),
    mimeType: mimeTypeOf(uri, generation.type),
  }));
}

/** What the assistant (or its user) should do about an API error. */
export function whatToDo(error: MediaGenError, context: { baseUrl?: string; tool: string }): string {
  switch (error.code) {
    case 'VALIDATION_ERROR':
      return 'Fix the field named in the message and call the tool again; nothing was charged.';
    case 'UNAUTHORIZED':
      return 'The API key is missing or invalid: set MEDIAGEN_API_KEY in the MCP server configuration (or send "Authorization: Bearer <key>" to a hosted server), then retry.';
    case 'PAYMENT_REQUIRED':
      return 'The account has too little credit: top up the account, then call the tool again. Nothing was charged for this call.';
    case 'FORBIDDEN':
      return 'The API key is disabled or expired: use another key.';
    case 'NOT_FOUND':
      // GET /models cannot be 404 on a right base URL: the version prefix is missing or wrong.
      if (context.tool === 'list_models' || (context.baseUrl && !/\/api\/v3\/?$/.test(context.baseUrl)))
        return `The API answered 404: MEDIAGEN_BASE_URL must be the API root including /api/v3 (e.g. https://host/api/v3)${context.baseUrl ? `, it is ${context.baseUrl}` : ''}. Fix it in the MCP server's configuration and restart it.`;
      return context.tool === 'get_generation'
        ? 'No generation has this id for this API key: check the id returned by generate or face_swap.'
        : 'The model or task does not exist: call list_models and use a slug and one of its tasks.';
    case 'RATE_LIMITED': {
      const after =
        error instanceof RateLimitedError && error.retryAfterMs
          ? Math.ceil(error.retryAfterMs / 1000)
          : undefined;
      return `Too many requests: retry ${after ? `in ${after} seconds` : 'in a little while'}.`;
    }
    case 'NETWORK_ERROR':
      return `The mediagen API could not be reached${context.baseUrl ? ` at ${context.baseUrl}` : ''}: check MEDIAGEN_BASE_URL and the network, then retry.`;
    case 'RESPONSE_VALIDATION':
      return 'The API answered with something this client does not understand: check that MEDIAGEN_BASE_URL points at a mediagen API (it ends in /api/v3), then retry later.';
    case 'GENERATION_FAILED':
      return 'The credits were refunded. Change the input (for example a reachable media URL or a simpler prompt) or try another model.';
    default:
      return 'The service had a problem: retry later.';
  }
}

/** An isError result for anything a tool call threw. Aborts are rethrown by the caller, not reported. */
export function errorResult(error: unknown, context: { baseUrl?: string; tool: string }): CallToolResult {
  if (error instanceof MediaGenError) {
    const status = error.status ? ` (HTTP ${error.status})` : '';
    const requestId = error.requestId ? ` [request id ${error.requestId}]` : '';
    return failure(
      `${error.code}${status}: ${error.message}${requestId}\nWhat to do: ${whatToDo(error, context)}`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith('mediagen:')) {
    // The core client's configuration errors (no or malformed base URL).
    return failure(
      `Configuration error: ${message}\nWhat to do: set MEDIAGEN_BASE_URL (and MEDIAGEN_API_KEY) in the MCP server's configuration and restart it.`,
    );
  }
  return failure(`Unexpected error: ${message}\nWhat to do: retry later; if it keeps failing, report it.`);
}
