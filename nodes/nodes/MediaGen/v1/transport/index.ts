import {
  MediaGenClient,
  TransportError,
  type Clock,
  type DownloadResponse,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from '@mediagen/core';
import {
  NodeOperationError,
  sleep,
  type IAllExecuteFunctions,
  type IDataObject,
  type IHttpRequestOptions,
  type ILoadOptionsFunctions,
  type IExecuteFunctions,
} from 'n8n-workflow';

/** The credential type every request is authenticated with. */
export const CREDENTIAL_TYPE = 'mediaGenApi';

type Context = IExecuteFunctions | ILoadOptionsFunctions;

/** Errors n8n's HTTP layer raises when the connection was never made (nothing reached the server). */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function lowerCaseHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers && typeof headers === 'object') {
    for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      out[key.toLowerCase()] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    }
  }
  return out;
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
  if (ArrayBuffer.isView(body))
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return JSON.stringify(body);
}

function transportError(error: unknown): TransportError {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new TransportError(message, typeof code === 'string' && NOT_SENT_CODES.has(code), { cause: error });
}

interface FullResponse {
  body: unknown;
  headers: unknown;
  statusCode: number;
}

/**
 * The core client's Transport over n8n's own HTTP helpers: every API request goes through
 * `httpRequestWithAuthentication` (so n8n's credentials, proxy and SSL settings apply), with the full
 * response returned and HTTP error statuses left for the client to map onto the spec's errors.
 */
export function n8nTransport(ctx: Context, apiOrigin: string): Transport {
  const send = (options: IHttpRequestOptions, authenticated: boolean): Promise<FullResponse> =>
    authenticated
      ? (ctx.helpers.httpRequestWithAuthentication.call(
          ctx as unknown as IAllExecuteFunctions,
          CREDENTIAL_TYPE,
          options,
        ) as Promise<FullResponse>)
      : (ctx.helpers.httpRequest(options) as Promise<FullResponse>);

  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      const options: IHttpRequestOptions = {
        method: req.method,
        url: req.url,
        headers: req.headers as IDataObject,
        returnFullResponse: true,
        ignoreHttpStatusErrors: true,
        json: false,
        encoding: 'arraybuffer',
        ...(req.body !== undefined ? { body: req.body } : {}),
        ...(req.timeoutMs !== undefined ? { timeout: req.timeoutMs } : {}),
        ...(req.signal ? { abortSignal: req.signal } : {}),
      };
      let response: FullResponse;
      try {
        response = await send(options, true);
      } catch (error) {
        throw transportError(error);
      }
      return {
        status: response.statusCode,
        headers: lowerCaseHeaders(response.headers),
        body: bodyText(response.body),
      };
    },

    async download(req): Promise<DownloadResponse> {
      // Output URLs are signed. The API key goes only to the API's own origin, never to another host.
      const sameOrigin = new URL(req.url).origin === apiOrigin;
      let response: FullResponse;
      try {
        response = await send(
          {
            method: 'GET',
            url: req.url,
            headers: req.headers as IDataObject,
            returnFullResponse: true,
            ignoreHttpStatusErrors: true,
            json: false,
            encoding: 'stream',
            ...(req.signal ? { abortSignal: req.signal } : {}),
          },
          sameOrigin,
        );
      } catch (error) {
        throw transportError(error);
      }
      return {
        status: response.statusCode,
        headers: lowerCaseHeaders(response.headers),
        body: response.body as AsyncIterable<Uint8Array>,
      };
    },
  };
}

/** The core client's Clock over n8n-workflow's `sleep` (community nodes may not use timers directly). */
export const n8nClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(Math.max(0, ms), signal),
};

/** A core client for this execution: base URL from the credential, I/O through n8n. */
export async function getClient(ctx: Context): Promise<MediaGenClient> {
  const credentials = await ctx.getCredentials<{ baseUrl: string }>(CREDENTIAL_TYPE);
  const baseUrl = String(credentials.baseUrl ?? '').trim();
  // Checked here so a wrong credential names its own field, not the client's options or environment.
  let origin = '';
  try {
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
  } catch {
    // reported below
  }
  if (origin === '') {
    throw new NodeOperationError(
      ctx.getNode(),
      baseUrl === ''
        ? 'The Base URL of the MediaGen API credential is empty'
        : `The Base URL of the MediaGen API credential, "${baseUrl}", is not an http(s) URL`,
      {
        description:
          'Open the credential and set Base URL to the API root including /api/v3, for example https://mediagen.example.com/api/v3.',
      },
    );
  }
  return new MediaGenClient({
    transport: n8nTransport(ctx, origin),
    clock: n8nClock,
    baseUrl,
    // n8n adds the Authorization header from the credential; '' stops the client reading MEDIAGEN_API_KEY.
    apiKey: '',
    headers: { 'user-agent': 'n8n-nodes-mediagen' },
  });
}
