/**
 * `@mediagen/core/undici`: the default transport, on undici 7's `request` with a keep-alive Agent, and
 * `createClient()`. Kept out of the main entry so that bundles of `@mediagen/core` (the n8n node) never
 * pull in undici.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { MediaGenClient, type MediaGenClientOptions } from './client.js';
import { systemClock } from './clock.js';
import {
  TransportError,
  type DownloadResponse,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

export interface UndiciTransportOptions {
  /** Use this dispatcher (an Agent, a MockAgent in tests, a ProxyAgent) instead of the transport's own Agent. */
  dispatcher?: Dispatcher;
  /** TCP + TLS connect timeout. Default 10,000 ms. */
  connectTimeoutMs?: number;
  /** How long an idle keep-alive socket is kept. Default 10,000 ms. */
  keepAliveTimeoutMs?: number;
  /** Largest gap between two body chunks of a download. Default 120,000 ms. */
  bodyTimeoutMs?: number;
  /** Most sockets per origin. Default 16. */
  connections?: number;
  /** How long a download may wait for the response headers. Default 60,000 ms. */
  downloadHeadersTimeoutMs?: number;
}

export interface UndiciTransport extends Transport {
  download(req: {
    url: string;
    headers: Record<string, string>;
    signal?: AbortSignal;
  }): Promise<DownloadResponse>;
  /** Closes the transport's own Agent (not a dispatcher that was passed in). */
  close(): Promise<void>;
}

/** Error codes of failures where the request surely never reached the server. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      for (const inner of errors) {
        const innerCode = (inner as { code?: unknown } | null)?.code;
        if (typeof innerCode === 'string') codes.push(innerCode);
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/**
 * Classifies a failure of undici into a TransportError: `notSent` for connection refused, DNS failure,
 * unreachable host and connect timeout (the request never left); everything else (reset, socket closed,
 * timeouts after sending) may have reached the server.
 */
export function toTransportError(error: unknown, context: string): TransportError {
  const codes = errorCodes(error);
  const notSent = codes.some((code) => NOT_SENT_CODES.has(code));
  const reason = error instanceof Error ? error.message || error.name : String(error);
  const codeText = codes.length > 0 ? ` (${[...new Set(codes)].join(', ')})` : '';
  return new TransportError(`${context}: ${reason}${codeText}`, notSent, { cause: error });
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** The caller's signal combined with a timeout; tells the two apart when it fires. */
function deadline(signal: AbortSignal | undefined, timeoutMs: number | undefined) {
  const timeout = timeoutMs !== undefined && timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
  const signals = [signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  const combined =
    signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  return { combined, timedOut: () => timeout?.aborted === true && signal?.aborted !== true };
}

/** The default Transport: undici `request` over a keep-alive Agent. */
export function undiciTransport(options: UndiciTransportOptions = {}): UndiciTransport {
  const ownAgent = options.dispatcher
    ? undefined
    : new Agent({
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: options.connections ?? 16,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        // Whole-request deadlines come from each request's timeoutMs; these are per-phase safety nets.
        headersTimeout: 0,
        bodyTimeout: options.bodyTimeoutMs ?? 120_000,
      });
  const dispatcher: Dispatcher = options.dispatcher ?? ownAgent!;

  async function send(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    headersTimeoutMs?: number,
  ) {
    const { combined, timedOut } = deadline(signal, timeoutMs);
    const context = `${method} ${url}`;
    try {
      return {
        response: await request(url, {
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
          ...(combined ? { signal: combined } : {}),
          ...(headersTimeoutMs !== undefined ? { headersTimeout: headersTimeoutMs } : {}),
          dispatcher,
        }),
        combined,
        timedOut,
        context,
      };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut()) {
        throw new TransportError(`${context}: no response within ${timeoutMs} ms`, false, { cause: error });
      }
      throw toTransportError(error, context);
    }
  }

  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      const { response, timedOut, context } = await send(
        req.method,
        req.url,
        req.headers,
        req.body,
        req.signal,
        req.timeoutMs,
      );
      try {
        const body = await response.body.text();
        return { status: response.statusCode, headers: flattenHeaders(response.headers), body };
      } catch (error) {
        if (req.signal?.aborted) throw req.signal.reason;
        if (timedOut()) {
          throw new TransportError(`${context}: body not received within ${req.timeoutMs} ms`, false, {
            cause: error,
          });
        }
        throw toTransportError(error, context);
      }
    },

    async download(req): Promise<DownloadResponse> {
      // No whole-request timeout: a large video may take long. The headers must come within
      // downloadHeadersTimeoutMs, and bodyTimeout bounds stalls between chunks.
      const { response, context } = await send(
        'GET',
        req.url,
        req.headers,
        undefined,
        req.signal,
        undefined,
        options.downloadHeadersTimeoutMs ?? 60_000,
      );
      const body = response.body;
      async function* chunks(): AsyncGenerator<Uint8Array> {
        try {
          for await (const chunk of body) yield chunk as Uint8Array;
        } catch (error) {
          if (req.signal?.aborted) throw req.signal.reason;
          throw toTransportError(error, context);
        }
      }
      return { status: response.statusCode, headers: flattenHeaders(response.headers), body: chunks() };
    },

    async close() {
      await ownAgent?.close();
    },
  };
}

export type CreateClientOptions = Omit<MediaGenClientOptions, 'transport'> & {
  /** Default: a new undiciTransport(). */
  transport?: Transport;
  /** Passed to undiciTransport() when no transport is given. */
  undici?: UndiciTransportOptions;
};

/**
 * A ready client over undici. apiKey and baseUrl fall back to MEDIAGEN_API_KEY and MEDIAGEN_BASE_URL.
 *
 * ```ts
 * const client = createClient({ apiKey, baseUrl: 'https://host/api/v3' });
 * ```
 */
export function createClient(options: CreateClientOptions = {}): MediaGenClient {
  const { transport, undici, clock, ...rest } = options;
  return new MediaGenClient({
    ...rest,
    transport: transport ?? undiciTransport(undici),
    clock: clock ?? systemClock,
  });
}
