import type { z } from 'zod';
import { successEnvelope } from '../spec/envelope.js';
import { ErrorBody } from '../spec/errors.js';
import { DetectedFaces } from '../spec/faces.js';
import { Generation } from '../spec/generation.js';
import { ModelList, type Model } from '../spec/model.js';
import { ModerationResult, type ModerationRequest } from '../spec/moderation.js';
import type { TaskName, TaskParamsInput } from '../spec/tasks/index.js';
import { formatValidationError, issuePath } from '../rules/validationMessage.js';
import { systemClock } from './clock.js';
import { ENV_API_KEY, ENV_BASE_URL, normalizeBaseUrl } from './config.js';
import { readEnv } from './env.js';
import { errorForResponse, NetworkError, ResponseValidationError, type MediaGenError } from './errors.js';
import { fileNameFromResponse } from './fileName.js';
import {
  isRetryable,
  parseRetryAfter,
  resolveRetryOptions,
  retryDelayMs,
  type RetryOptions,
} from './retry.js';
import {
  TransportError,
  type Clock,
  type HttpMethod,
  type Transport,
  type TransportResponse,
} from './transport.js';
import { MAX_PREFER_WAIT_SECONDS, waitForGeneration, type WaitOptions } from './wait.js';

export interface MediaGenClientOptions {
  /** The I/O: `undiciTransport()` from `@mediagen/core/undici`, n8n's helpers, or a test mock. */
  transport: Transport;
  /** Time and sleep. Default: systemClock (Date.now + setTimeout). */
  clock?: Clock;
  /**
   * Sent as `Authorization: Bearer <apiKey>`. Default: MEDIAGEN_API_KEY. Without either, no
   * Authorization header is sent (e.g. the n8n transport authenticates requests itself).
   */
  apiKey?: string;
  /** The API root including the version prefix, e.g. `https://host/api/v3`. Default: MEDIAGEN_BASE_URL. */
  baseUrl?: string;
  /** Retry knobs; see RetryOptions for the defaults. */
  retry?: Partial<RetryOptions>;
  /** Per-request timeout for the transport to enforce. Default 60,000 ms. */
  timeoutMs?: number;
  /** Extra headers sent with every API request (e.g. `user-agent`). */
  headers?: Record<string, string>;
  /**
   * Fall back to MEDIAGEN_API_KEY / MEDIAGEN_BASE_URL when apiKey / baseUrl are not given. Default true.
   * Pass false where the host's environment is not the caller's (an n8n node authenticates through its
   * credential and must not pick up a key from n8n's own environment).
   */
  useEnv?: boolean;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface SubmitOptions extends RequestOptions {
  /**
   * Sent as `Idempotency-Key` (server extension): the server answers a repeat with the first generation
   * instead of charging again, which also lets the client retry the POST after an ambiguous failure.
   */
  idempotencyKey?: string;
}

export interface GetGenerationOptions extends RequestOptions {
  /** Sent as `Prefer: wait=N` (server extension, N <= 60): hold the response until done or N seconds pass. */
  waitSeconds?: number;
}

export type GenerateOptions = WaitOptions & { idempotencyKey?: string };

export interface DownloadResult {
  body: AsyncIterable<Uint8Array>;
  contentType: string;
  /** From Content-Disposition's filename, else the URL path's last segment. */
  fileName: string;
  contentLength?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

interface SendSpec {
  method: HttpMethod;
  /** Path under the base URL, e.g. `/models`. */
  path: string;
  body?: unknown;
  /** Safe to repeat even if processed: an Idempotency-Key is sent, or the endpoint has no side effects. */
  idempotent: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface Attempted<R> {
  response: R;
  status: number;
  headers: Record<string, string>;
}

/**
 * The mediagen API client: protocol logic only (requests, response validation against the spec's
 * schemas, error mapping, retries, waits). All I/O goes through the injected Transport and Clock.
 */
export class MediaGenClient {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly transport: Transport;
  private readonly clock: Clock;
  private readonly retry: RetryOptions;
  private readonly timeoutMs: number;
  private readonly extraHeaders: Record<string, string>;

  constructor(options: MediaGenClientOptions) {
    this.transport = options.transport;
    this.clock = options.clock ?? systemClock;
    const env = options.useEnv === false ? () => undefined : readEnv;
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? env(ENV_BASE_URL));
    const apiKey = options.apiKey ?? env(ENV_API_KEY);
    this.apiKey = apiKey === undefined || apiKey === '' ? undefined : apiKey;
    this.retry = resolveRetryOptions(options.retry);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.extraHeaders = Object.fromEntries(
      Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
  }

  /** GET /models: the catalog. */
  async listModels(options: RequestOptions = {}): Promise<Model[]> {
    const { data } = await this.call(ModelList, {
      method: 'GET',
      path: '/models',
      idempotent: true,
      ...signalOf(options),
    });
    return data;
  }

  /** POST /{model}/{task}: submit a generation (202, status `processing`). Charged at once. */
  submit<T extends TaskName>(
    model: string,
    task: T,
    params: TaskParamsInput<T>,
    options?: SubmitOptions,
  ): Promise<Generation>;
  submit(
    model: string,
    task: string,
    params: Record<string, unknown>,
    options?: SubmitOptions,
  ): Promise<Generation>;
  async submit(
    model: string,
    task: string,
    params: unknown,
    options: SubmitOptions = {},
  ): Promise<Generation> {
    const { data } = await this.call(Generation, {
      method: 'POST',
      path: `/${encodeURIComponent(model)}/${encodeURIComponent(task)}`,
      body: params ?? {},
      ...idempotencyOf(options.idempotencyKey),
      ...signalOf(options),
    });
    return data;
  }

  /** GET /status/{id}. With `waitSeconds`, sends `Prefer: wait=N`. */
  async getGeneration(id: string, options: GetGenerationOptions = {}): Promise<Generation> {
    return (await this.poll(id, options)).generation;
  }

  /** Polls a generation until completed (resolves), failed (GenerationFailedError) or timed out (WaitTimeoutError). */
  waitForGeneration(idOrGeneration: string | Generation, options: WaitOptions = {}): Promise<Generation> {
    return waitForGeneration(
      { clock: this.clock, poll: (id, o) => this.poll(id, o) },
      idOrGeneration,
      options,
    );
  }

  /** submit + waitForGeneration. */
  generate<T extends TaskName>(
    model: string,
    task: T,
    params: TaskParamsInput<T>,
    options?: GenerateOptions,
  ): Promise<Generation>;
  generate(
    model: string,
    task: string,
    params: Record<string, unknown>,
    options?: GenerateOptions,
  ): Promise<Generation>;
  async generate(
    model: string,
    task: string,
    params: unknown,
    options: GenerateOptions = {},
  ): Promise<Generation> {
    const generation = await this.submit(
      model,
      task,
      params as Record<string, unknown>,
      submitOptionsOf(options),
    );
    return this.waitForGeneration(generation, options);
  }

  /** POST /face-swap/detect (free): URLs of the cropped faces, `message` when none were found. */
  async detectFaces(sourceImage: string, options: RequestOptions = {}): Promise<DetectedFaces> {
    const { data } = await this.call(DetectedFaces, {
      method: 'POST',
      path: '/face-swap/detect',
      body: { source_image: sourceImage },
      // Detection is free and changes nothing, so repeating it after an ambiguous failure is harmless.
      idempotent: true,
      ...signalOf(options),
    });
    return data;
  }

  /** POST /face-swap (charged): swap a detected face into a target image, video or GIF. */
  async faceSwap(
    sourceFaceUrl: string,
    targetMedia: string,
    options: SubmitOptions = {},
  ): Promise<Generation> {
    const { data } = await this.call(Generation, {
      method: 'POST',
      path: '/face-swap',
      body: { source_face_url: sourceFaceUrl, target_media: targetMedia },
      ...idempotencyOf(options.idempotencyKey),
      ...signalOf(options),
    });
    return data;
  }

  /** faceSwap + waitForGeneration. */
  async faceSwapAndWait(
    sourceFaceUrl: string,
    targetMedia: string,
    options: GenerateOptions = {},
  ): Promise<Generation> {
    const generation = await this.faceSwap(sourceFaceUrl, targetMedia, submitOptionsOf(options));
    return this.waitForGeneration(generation, options);
  }

  /** POST /moderation (synchronous): one verdict for one image, video or text. */
  async moderate(request: ModerationRequest, options: RequestOptions = {}): Promise<ModerationResult> {
    const { data } = await this.call(ModerationResult, {
      method: 'POST',
      path: '/moderation',
      body: request,
      // Moderation is billed (in batches) and has no Idempotency-Key: never repeated blindly.
      idempotent: false,
      ...signalOf(options),
    });
    return data;
  }

  /**
   * Streams an output file. The Authorization header is sent only when the URL is on the API's own origin
   * (output URLs are signed; the key is never handed to another host).
   */
  async download(outputUrl: string, options: RequestOptions = {}): Promise<DownloadResult> {
    const transport = this.transport;
    if (!transport.download) {
      throw new TypeError('mediagen: this transport cannot stream downloads (it has no download())');
    }
    let url: URL;
    try {
      url = new URL(outputUrl, `${this.baseUrl}/`);
    } catch {
      throw new TypeError(`mediagen: "${outputUrl}" is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`mediagen: "${outputUrl}" is not an http(s) URL`);
    }
    const headers: Record<string, string> = { ...this.extraHeaders };
    if (this.apiKey !== undefined && url.origin === new URL(this.baseUrl).origin) {
      headers['authorization'] = `Bearer ${this.apiKey}`;
    }
    const label = `GET ${url.pathname}`;
    const signal = options.signal;
    const attempted = await this.withRetry(
      label,
      { method: 'GET', idempotent: true, ...(signal ? { signal } : {}) },
      async () => {
        const response = await transport.download!({
          url: url.toString(),
          headers,
          ...(signal ? { signal } : {}),
        });
        return { response, status: response.status, headers: response.headers };
      },
      (response) => drain(response.body),
    );
    const { response } = attempted;
    if (response.status < 200 || response.status >= 300) {
      const text = await readText(response.body, 64 * 1024);
      throw this.errorFor(label, { status: response.status, headers: response.headers, body: text });
    }
    const length = Number(response.headers['content-length']);
    return {
      body: response.body,
      contentType: response.headers['content-type'] || 'application/octet-stream',
      fileName: fileNameFromResponse(response.headers['content-disposition'], url),
      ...(Number.isSafeInteger(length) && length >= 0 && response.headers['content-length'] !== undefined
        ? { contentLength: length }
        : {}),
    };
  }

  // --- protocol internals -------------------------------------------------------------------------

  private async poll(
    id: string,
    options: GetGenerationOptions,
  ): Promise<{ generation: Generation; requestId?: string }> {
    const headers: Record<string, string> = {};
    let timeoutMs = this.timeoutMs;
    if (options.waitSeconds !== undefined && options.waitSeconds > 0) {
      const n = Math.min(MAX_PREFER_WAIT_SECONDS, Math.ceil(options.waitSeconds));
      headers['prefer'] = `wait=${n}`;
      // The server may hold the response for N seconds: the request timeout must outlast that.
      timeoutMs = Math.max(timeoutMs, n * 1000 + 15_000);
    }
    const { data, requestId } = await this.call(Generation, {
      method: 'GET',
      path: `/status/${encodeURIComponent(id)}`,
      idempotent: true,
      headers,
      timeoutMs,
      ...signalOf(options),
    });
    return { generation: data, ...(requestId !== undefined ? { requestId } : {}) };
  }

  /** One API call: request with retries, then the body validated against `{success: true, data: schema}`. */
  private async call<S extends z.ZodType>(
    schema: S,
    spec: SendSpec,
  ): Promise<{ data: z.output<S>; requestId?: string }> {
    const label = `${spec.method} ${spec.path}`;
    const request = {
      method: spec.method,
      url: `${this.baseUrl}${spec.path}`,
      headers: this.headersFor(spec),
      ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
      ...(spec.signal ? { signal: spec.signal } : {}),
      timeoutMs: spec.timeoutMs ?? this.timeoutMs,
    };
    const { response } = await this.withRetry(label, spec, async () => {
      const response = await this.transport.request(request);
      return { response, status: response.status, headers: response.headers };
    });
    if (response.status < 200 || response.status >= 300) throw this.errorFor(label, response);

    const requestId = response.headers['x-request-id'];
    const base = { status: response.status, ...(requestId !== undefined ? { requestId } : {}) };
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      throw new ResponseValidationError(
        `${label}: the response (HTTP ${response.status}) is not JSON: ${snippet(response.body)}`,
        { ...base, field: '(body)' },
      );
    }
    const parsed = successEnvelope(schema).safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const field = first ? issuePath(first) : '(body)';
      throw new ResponseValidationError(
        `${label}: the response does not match the API spec at ${field} (${formatValidationError(parsed.error)})`,
        { ...base, field, cause: parsed.error },
      );
    }
    return {
      data: (parsed.data as { data: z.output<S> }).data,
      ...(requestId !== undefined ? { requestId } : {}),
    };
  }

  private headersFor(spec: SendSpec): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.extraHeaders };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (this.apiKey !== undefined) headers['authorization'] = `Bearer ${this.apiKey}`;
    for (const [key, value] of Object.entries(spec.headers ?? {})) headers[key.toLowerCase()] = value;
    return headers;
  }

  /**
   * Runs `attempt` until it returns a response that is not worth retrying, or the retry budget is spent.
   * Network failures become NetworkError; HTTP failures are returned for the caller to map.
   */
  private async withRetry<R>(
    label: string,
    spec: { method: HttpMethod; idempotent: boolean; signal?: AbortSignal },
    attempt: () => Promise<Attempted<R>>,
    discard?: (response: R) => Promise<void>,
  ): Promise<Attempted<R>> {
    const { signal } = spec;
    for (let retry = 0; ; retry++) {
      if (signal?.aborted) throw signal.reason;
      let attempted: Attempted<R>;
      try {
        attempted = await attempt();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const notSent = error instanceof TransportError ? error.notSent : false;
        const reason = error instanceof Error ? error.message : String(error);
        const networkError = new NetworkError(`${label}: ${reason}`, { notSent, cause: error });
        if (retry < this.retry.maxRetries && isRetryable({ kind: 'network', notSent }, spec)) {
          const delay = retryDelayMs(retry, undefined, this.retry) ?? 0;
          await this.clock.sleep(delay, signal);
          continue;
        }
        throw networkError;
      }
      const { status } = attempted;
      if (status >= 200 && status < 300) return attempted;
      if (retry < this.retry.maxRetries && isRetryable({ kind: 'response', status }, spec)) {
        const retryAfterMs = parseRetryAfter(attempted.headers['retry-after'], this.clock.now());
        const delay = retryDelayMs(retry, retryAfterMs, this.retry);
        if (delay !== undefined) {
          if (discard) await discard(attempted.response).catch(() => undefined);
          await this.clock.sleep(delay, signal);
          continue;
        }
      }
      return attempted;
    }
  }

  /** The typed error for a failing response (spec 7), from the error envelope when the body is one. */
  private errorFor(label: string, response: TransportResponse): MediaGenError {
    const requestId = response.headers['x-request-id'];
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], this.clock.now());
    let code: string | undefined;
    let message: string;
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    const parsed = ErrorBody.safeParse(json);
    if (parsed.success) {
      code = parsed.data.error.code;
      message = parsed.data.error.message;
    } else {
      message =
        `${label} failed with HTTP ${response.status}; the body is not the API's error envelope` +
        (response.body.trim() === '' ? ' (empty body)' : `: ${snippet(response.body)}`);
    }
    return errorForResponse({
      status: response.status,
      message,
      ...(code !== undefined ? { code } : {}),
      ...(requestId !== undefined ? { requestId } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
}

function signalOf(options: RequestOptions): { signal?: AbortSignal } {
  return options.signal ? { signal: options.signal } : {};
}

function idempotencyOf(key: string | undefined): { idempotent: boolean; headers?: Record<string, string> } {
  return key === undefined || key === ''
    ? { idempotent: false }
    : { idempotent: true, headers: { 'idempotency-key': key } };
}

function submitOptionsOf(options: GenerateOptions): SubmitOptions {
  return {
    ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat === '' ? '(empty)' : flat;
}

async function drain(body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const _chunk of body) {
    // discard
  }
}

async function readText(body: AsyncIterable<Uint8Array>, limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) {
    if (text.length < limit) text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
