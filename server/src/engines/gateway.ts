/**
 * The gateway engine: a catalog model served by an upstream provider that speaks this same API (another
 * mediagen server, or any host implementing the spec). The catalog entry names it in `engine_options`:
 *
 *   "engine": "gateway",
 *   "engine_options": { "base_url": "https://provider.example/api/v3", "api_key_env": "PROVIDER_API_KEY",
 *                       "model": "provider-model-slug", "task": "text-to-image", "timeout_seconds": 600 }
 *
 * (`task` defaults to the request's task, `model` is required). The worker's job submits the request
 * upstream with the core client (429 and 5xx are retried with backoff by the client; an Idempotency-Key
 * derived from the request makes a retried job reuse the first upstream generation instead of paying
 * twice), polls at the spec's interval for the output type until done or `timeout_seconds` pass, then
 * downloads every output into the work directory; the server stores and serves them under its own
 * signed URLs. Any upstream failure fails the generation here (refunded) with an EngineError.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isTaskName, TASK_NAMES, type Generation, type MediaGenClient } from '@mediagen/core';
import { createClient } from '@mediagen/core/undici';
import {
  EngineError,
  type EngineInput,
  type EngineOutput,
  type GenerationEngine,
  type OutputFile,
} from './types.js';
import { upstreamError } from './gateway/upstreamError.js';

export interface GatewayOptions {
  base_url: string;
  api_key_env?: string;
  model: string;
  task?: string;
  timeout_seconds?: number;
}

const DEFAULT_TIMEOUT_SECONDS = { image: 300, audio: 300, video: 900 } as const;

const EXT_BY_MIME: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/x-matroska': 'mkv',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mp4': 'm4a',
};

/** Reads and checks engine_options; a broken catalog entry is the operator's error, said plainly. */
export function gatewayOptions(options: Record<string, unknown> | undefined): GatewayOptions {
  const o = options ?? {};
  const baseUrl = o.base_url;
  if (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl)) {
    throw new EngineError('this model’s upstream is not configured (engine_options.base_url missing)');
  }
  if (typeof o.model !== 'string' || o.model === '') {
    throw new EngineError('this model’s upstream is not configured (engine_options.model missing)');
  }
  return {
    base_url: baseUrl,
    model: o.model,
    ...(typeof o.api_key_env === 'string' ? { api_key_env: o.api_key_env } : {}),
    ...(typeof o.task === 'string' ? { task: o.task } : {}),
    ...(typeof o.timeout_seconds === 'number' && o.timeout_seconds > 0
      ? { timeout_seconds: o.timeout_seconds }
      : {}),
  };
}

/** One client (and so one keep-alive connection pool) per upstream and key, for the process's life. */
const clients = new Map<string, MediaGenClient>();
function clientFor(baseUrl: string, apiKey: string | undefined): MediaGenClient {
  const key = `${baseUrl}\n${apiKey ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    client = createClient({ baseUrl, useEnv: false, ...(apiKey ? { apiKey } : {}) });
    clients.set(key, client);
  }
  return client;
}

function outputUrls(generation: Generation): string[] {
  const many = generation.output_urls;
  if (Array.isArray(many) && many.length > 0) return many;
  return generation.output_url ? [generation.output_url] : [];
}

function extFor(contentType: string, fileName: string): { ext: string; mime: string } {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  const fromMime = EXT_BY_MIME[mime];
  if (fromMime) return { ext: fromMime, mime };
  const fromName = /\.([a-z0-9]{2,5})$/i.exec(fileName)?.[1]?.toLowerCase();
  const known = Object.entries(EXT_BY_MIME).find(([, e]) => e === (fromName === 'jpg' ? 'jpeg' : fromName));
  if (known) return { ext: known[1], mime: known[0] };
  throw new EngineError(
    `the upstream provider returned a file of an unsupported type (${mime || 'unknown'})`,
  );
}

async function run(input: EngineInput): Promise<EngineOutput> {
  const options = gatewayOptions(input.options);
  const task = options.task ?? input.task;
  if (!isTaskName(task))
    throw new EngineError(`this model’s upstream task "${task}" is not a task of this API`);
  let apiKey: string | undefined;
  if (options.api_key_env) {
    apiKey = process.env[options.api_key_env];
    if (!apiKey)
      throw new EngineError(
        `this model’s upstream API key is not set (operator: set ${options.api_key_env})`,
      );
  }
  const expected = task.includes('video') ? 'video' : /audio|music|speech|tts/.test(task) ? 'audio' : 'image';
  const timeoutSeconds = options.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS[expected];
  const client = clientFor(options.base_url, apiKey);
  const idempotencyKey = `gw-${createHash('sha256')
    .update(JSON.stringify([options.base_url, options.model, task, input.params, input.seed]))
    .digest('hex')
    .slice(0, 40)}`;

  try {
    const generation = await client.generate(options.model, task, input.params, {
      idempotencyKey,
      timeoutMs: timeoutSeconds * 1000,
      signal: input.signal,
    });
    const urls = outputUrls(generation);
    if (urls.length === 0) throw new EngineError('the upstream provider completed without an output file');
    const files: OutputFile[] = [];
    for (const [i, url] of urls.entries()) {
      const download = await client.download(url, { signal: input.signal });
      const { ext, mime } = extFor(download.contentType, download.fileName);
      const path = join(input.workDir, `upstream-${i + 1}.${ext}`);
      await pipeline(Readable.from(download.body), createWriteStream(path), { signal: input.signal });
      files.push({ path, mime, ext });
    }
    return { type: generation.type, files };
  } catch (error) {
    input.signal.throwIfAborted();
    throw upstreamError(error, timeoutSeconds);
  }
}

export const gatewayEngine: GenerationEngine = {
  id: 'gateway',
  tasks: TASK_NAMES,
  run,
};
