import type { MediaGenClient, Model } from '@mediagen/core';
import { createClient } from '@mediagen/core/undici';
import type { ToolExtra } from './progress.js';

/** What every tool needs besides its arguments. Built once per McpServer by createServer(). */
export interface ToolContext {
  /** The API client for this call: per-request key when hosted over HTTP, else the configured one. */
  clientFor(extra: ToolExtra): MediaGenClient;
  /** The base URL, for error messages. */
  baseUrl: string | undefined;
  /** Longest wait of one tool call, in seconds. */
  maxWaitSeconds: number;
  /** Longest time one tool call may take in all, in seconds (runTool.ts). */
  callTimeoutSeconds: number;
  /** Whether image results carry a small preview thumbnail. */
  previews: boolean;
  /** Catalog known at start (for the price notes in tool descriptions); may be empty. */
  catalog: Model[];
  /**
   * Mixed into every Idempotency-Key: a retried call (same arguments, same scope) is not charged twice,
   * while two MCP servers (two users' processes) never share keys.
   */
  idempotencyScope: string;
  /** A notifications/message log line to the client (it filters by the level it set with logging/setLevel). */
  log(level: 'debug' | 'info' | 'warning' | 'error', message: string, sessionId?: string): void;
}

export interface ClientSource {
  /** A fixed client (tests, embedding). */
  client?: MediaGenClient;
  apiKey?: string;
  baseUrl?: string;
  /** Take the API key from the request's `Authorization: Bearer` header when there is one (HTTP hosting). */
  keyFromAuthorizationHeader?: boolean;
}

const MAX_CACHED_CLIENTS = 100;

/** A clientFor() that honours a per-request Authorization header, caching one client per key. */
export function clientResolver(source: ClientSource): (extra: ToolExtra) => MediaGenClient {
  let defaultClient: MediaGenClient | undefined = source.client;
  const byKey = new Map<string, MediaGenClient>();
  const headerName = 'user-agent';
  const headers = { [headerName]: 'mediagen-mcp' };
  return (extra) => {
    if (source.keyFromAuthorizationHeader) {
      const header = extra.requestInfo?.headers?.authorization;
      const value = Array.isArray(header) ? header[0] : header;
      const key = value && /^Bearer\s+(.+)$/i.exec(value.trim())?.[1]?.trim();
      if (key) {
        let client = byKey.get(key);
        if (!client) {
          if (byKey.size >= MAX_CACHED_CLIENTS) byKey.delete(byKey.keys().next().value as string);
          client = createClient({ apiKey: key, baseUrl: source.baseUrl, headers });
          byKey.set(key, client);
        }
        return client;
      }
    }
    defaultClient ??= createClient({ apiKey: source.apiKey, baseUrl: source.baseUrl, headers });
    return defaultClient;
  };
}
