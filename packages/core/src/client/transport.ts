/**
 * The injected I/O of the client. The client's protocol logic (building requests, validating
 * responses, mapping errors, deciding retries and waits) never touches the network or timers itself:
 * - `undici.ts` supplies the default transport (Node, the MCP server, tests);
 * - the n8n node supplies one over `this.helpers.httpRequestWithAuthentication` and n8n-workflow's `sleep`;
 * - unit tests supply mocks.
 */

export type HttpMethod = 'GET' | 'POST';

export interface TransportRequest {
  method: HttpMethod;
  /** Absolute URL. */
  url: string;
  /** Lower-case header names. `authorization` is set by the client only when it was given an apiKey. */
  headers: Record<string, string>;
  /** JSON text for POST bodies. */
  body?: string;
  signal?: AbortSignal;
  /** Per-request timeout in ms, for the transport to enforce. */
  timeoutMs?: number;
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The raw body text (may be empty or not JSON). */
  body: string;
}

export interface DownloadResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as a stream of bytes. */
  body: AsyncIterable<Uint8Array>;
}

export interface Transport {
  request(req: TransportRequest): Promise<TransportResponse>;
  /** Streams a file (an output URL). Optional: transports that cannot stream may omit it. */
  download?(req: {
    url: string;
    headers: Record<string, string>;
    signal?: AbortSignal;
  }): Promise<DownloadResponse>;
}

/** A transport error that happened before any response arrived (connection refused, reset, DNS, timeout). */
export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    message: string,
    /** True when the request surely never reached the server (e.g. connection refused), so a retry cannot double-charge. */
    readonly notSent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Time, injected so tests and n8n control it. `sleep` must reject with the signal's reason when aborted. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
