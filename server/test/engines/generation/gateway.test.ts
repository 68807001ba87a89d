/**
 * The gateway engine against a REAL upstream: a second mediagen server started by this test. The
 * downstream server's catalog routes "upstream-painter" to the upstream's built-in "scene-painter".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { GenerationFailedError } from '@mediagen/core';
import { createClient } from '@mediagen/core/undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayEngine } from '../../../src/engines/gateway.js';
import { textToImageEngine } from '../../../src/engines/image/textToImage.js';
import { EngineError } from '../../../src/engines/types.js';
import type { TestServer } from '../../../dist/testing/index.js';
import { startServer } from '../../helpers.js';
import { cleanup, input, workDir } from './helpers.js';

const CATALOG = fileURLToPath(new URL('../../../catalog.json', import.meta.url));

let upstream: TestServer;
let downstream: TestServer;

beforeAll(async () => {
  upstream = await startServer();
  const catalog = JSON.parse(readFileSync(CATALOG, 'utf8')) as { models: unknown[] };
  const gateway = (slug: string, model: string) => ({
    slug,
    name: `${slug} (gateway)`,
    type: 'image',
    description: 'Served by an upstream mediagen server',
    engine_options: {
      base_url: upstream.baseUrl,
      api_key_env: 'GATEWAY_TEST_UPSTREAM_KEY',
      model,
      timeout_seconds: 120,
    },
    tasks: { 'text-to-image': { engine: 'gateway', pricing: { per_output_usd: 0.02 } } },
  });
  catalog.models.push(
    gateway('upstream-painter', 'scene-painter'),
    gateway('upstream-missing', 'no-such-model'),
  );
  const catalogPath = join(workDir(), 'catalog.json');
  writeFileSync(catalogPath, JSON.stringify(catalog));
  downstream = await startServer({
    env: { MEDIAGEN_CATALOG: catalogPath, GATEWAY_TEST_UPSTREAM_KEY: upstream.apiKey },
  });
}, 180_000);

afterAll(async () => {
  await downstream?.stop();
  await upstream?.stop();
  cleanup();
});

describe('gateway engine (upstream = a second real server)', () => {
  it('runs a generation upstream and serves the outputs under its own signed URLs', async () => {
    const client = createClient({ apiKey: downstream.apiKey, baseUrl: downstream.baseUrl, useEnv: false });
    const params = {
      prompt: 'a harbour at night with boats',
      aspect_ratio: '16:9',
      count: 2,
      seed: 99,
    } as const;
    const generation = await client.generate('upstream-painter', 'text-to-image', params, {
      timeoutMs: 120_000,
    });
    expect(generation.status).toBe('completed');
    expect(generation.output_urls).toHaveLength(2);
    const downstreamOrigin = new URL(downstream.baseUrl).origin;
    for (const url of generation.output_urls ?? []) expect(new URL(url).origin).toBe(downstreamOrigin);

    const download = await client.download(generation.output_url!);
    const chunks: Uint8Array[] = [];
    for await (const chunk of download.body) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1024, 576]);
    // The upstream's scene painter made it: the same request and seed rendered locally gives the same bytes.
    const local = await textToImageEngine.run(
      input('text-to-image', { ...params, resolution: '1k' }, { seed: 99 }),
    );
    expect(bytes.equals(readFileSync(local.files[0]!.path))).toBe(true);
  });

  it('fails the generation with the upstream reason when the upstream refuses it', async () => {
    const client = createClient({ apiKey: downstream.apiKey, baseUrl: downstream.baseUrl, useEnv: false });
    const error = await client
      .generate('upstream-missing', 'text-to-image', { prompt: 'anything' }, { timeoutMs: 120_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenerationFailedError);
    expect((error as GenerationFailedError).generation.error_message).toMatch(/upstream/);
  });

  it('called directly: downloads into the work directory; bad options and keys are EngineErrors', async () => {
    process.env.GATEWAY_TEST_DIRECT_KEY = upstream.apiKey;
    const ok = await gatewayEngine.run(
      input(
        'text-to-speech',
        { prompt: 'Hello from upstream.' },
        {
          options: {
            base_url: upstream.baseUrl,
            api_key_env: 'GATEWAY_TEST_DIRECT_KEY',
            model: 'formant-voice',
          },
        },
      ),
    );
    expect(ok.type).toBe('audio');
    expect(ok.files[0]!.mime).toBe('audio/mpeg');

    await expect(
      gatewayEngine.run(input('text-to-image', { prompt: 'x' }, { options: { model: 'scene-painter' } })),
    ).rejects.toBeInstanceOf(EngineError);
    await expect(
      gatewayEngine.run(
        input(
          'text-to-image',
          { prompt: 'x' },
          {
            options: {
              base_url: upstream.baseUrl,
              api_key_env: 'GATEWAY_TEST_UNSET_KEY',
              model: 'scene-painter',
            },
          },
        ),
      ),
    ).rejects.toThrow(/GATEWAY_TEST_UNSET_KEY/);
    process.env.GATEWAY_TEST_WRONG_KEY = 'mg_wrong_key';
    await expect(
      gatewayEngine.run(
        input(
          'text-to-image',
          { prompt: 'x' },
          {
            options: {
              base_url: upstream.baseUrl,
              api_key_env: 'GATEWAY_TEST_WRONG_KEY',
              model: 'scene-painter',
            },
          },
        ),
      ),
    ).rejects.toThrow(/credentials/);
  });
});
