/**
 * End to end over stdio, as Claude Desktop / Cursor run it: `node mcp/dist/cli.js` spawned by the SDK's
 * StdioClientTransport with MEDIAGEN_API_KEY / MEDIAGEN_BASE_URL in its environment, against the real
 * server of globalSetup.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Generation, Model } from '@mediagen/core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { followUntilDone, textOf } from './helpers.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let client: Client;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npx tsc -b mcp\` first`);
  client = new Client({ name: 'stdio-e2e', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli],
      env: {
        PATH: process.env.PATH ?? '',
        MEDIAGEN_API_KEY: inject('apiKey'),
        MEDIAGEN_BASE_URL: inject('baseUrl'),
        MEDIAGEN_MCP_MAX_WAIT_SECONDS: '60',
      },
      stderr: 'pipe',
    }),
  );
});

afterAll(async () => {
  await client?.close();
});

it('serves the six tools over stdio, with prices from the catalog in the charged tools', async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(
    ['detect_faces', 'face_swap', 'generate', 'get_generation', 'list_models', 'moderate'].sort(),
  );
  expect(tools.find((t) => t.name === 'generate')!.description).toMatch(/Catalog prices per generation/);
});

it('generates an image end to end over stdio, with progress', { timeout: 240_000 }, async () => {
  const list = await client.callTool({ name: 'list_models', arguments: { type: 'image' } });
  const model = (list.structuredContent as { models: Model[] }).models.find((m) =>
    m.tasks.includes('text-to-image'),
  )!;
  const progress: unknown[] = [];
  const first = await client.callTool(
    {
      name: 'generate',
      arguments: { model: model.slug, task: 'text-to-image', params: { prompt: 'a paper boat' } },
    },
    CallToolResultSchema,
    { onprogress: (p) => progress.push(p), timeout: 120_000 },
  );
  expect(first.isError, textOf(first)).toBeFalsy();
  expect(progress.length).toBeGreaterThanOrEqual(2);
  // On a slow machine the bounded wait may hand over to get_generation, as an assistant would follow.
  const { result } = await followUntilDone(client, first as CallToolResult);
  expect((result.structuredContent as Generation).status).toBe('completed');
  expect(result.content.some((c) => c.type === 'resource_link')).toBe(true);
});
