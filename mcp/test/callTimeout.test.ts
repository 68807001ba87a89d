/**
 * A tool call has a time limit (runTool.ts, MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS): against an API that
 * accepts requests and never answers, every tool answers a TIMEOUT isError naming the limit and the
 * base URL shortly after it, instead of running into the MCP client's own timeout (about 60 s) through
 * the core client's per-request timeout and retries (4 x 60 s). And a call's wait for a generation
 * leaves time to answer within the limit, against the real server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Generation, Model } from '@mediagen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInProcess, textOf } from './helpers.js';

let hung: Server;
let requests = 0;
const sockets = new Set<Socket>();
let hungUrl: string;

beforeAll(async () => {
  // A real HTTP server that reads every request and never answers it.
  hung = createServer((req) => {
    requests++;
    req.resume();
  });
  hung.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/api/v3`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => hung.close(() => resolve()));
});

describe('an API that never answers', () => {
  const calls: Array<[string, Record<string, unknown>]> = [
    ['list_models', {}],
    ['moderate', { text: 'a quiet afternoon in the park' }],
    ['detect_faces', { source_image: 'https://example.com/portrait.jpg' }],
    ['get_generation', { id: 'gen_0123456789' }],
    ['generate', { model: 'any-model', task: 'text-to-image', params: { prompt: 'a lighthouse at dusk' } }],
  ];

  it.each(calls)('%s answers TIMEOUT after the call limit, naming it', async (name, args) => {
    const mcp = await connectInProcess({ baseUrl: hungUrl, apiKey: 'mg_test_key', callTimeoutSeconds: 2 });
    try {
      const before = requests;
      const started = Date.now();
      const result = await mcp.client.callTool({ name, arguments: args });
      const seconds = (Date.now() - started) / 1000;
      const text = textOf(result);
      expect(result.isError, text).toBe(true);
      expect(text).toMatch(
        /^TIMEOUT: the mediagen API at http:\/\/127\.0\.0\.1:\d+\/api\/v3 did not answer within 2 s/,
      );
      expect(text).toContain('MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS');
      if (name === 'generate') expect(text).toMatch(/not submitted or charged twice/);
      // The API was really asked (the limit stopped a request in flight, not a refusal before sending)
      expect(requests).toBeGreaterThan(before);
      // ... and the call ended at its limit, not after the client's 60 s request timeout and retries.
      expect(seconds).toBeGreaterThanOrEqual(1.9);
      expect(seconds).toBeLessThan(20);
    } finally {
      await mcp.close();
    }
  });
});

describe('a wait within the call limit, against the real server', () => {
  let models: Model[];

  beforeAll(async () => {
    const mcp = await connectInProcess();
    try {
      const result = await mcp.client.callTool({ name: 'list_models', arguments: {} });
      models = (result.structuredContent as { models: Model[] }).models;
    } finally {
      await mcp.close();
    }
  });

  it('hands over to get_generation before the limit instead of timing out', async () => {
    // 8 s in all: the wait gets at most 8 - 5 = 3 s of it, less what the submit took.
    const mcp = await connectInProcess({ maxWaitSeconds: 45, callTimeoutSeconds: 8 });
    try {
      const music = models.find((m) => m.tasks.includes('text-to-music'))!;
      const started = Date.now();
      const result = await mcp.client.callTool({
        name: 'generate',
        arguments: {
          model: music.slug,
          task: 'text-to-music',
          // 120 s of music takes several CPU seconds, more than the 3 s the wait is left.
          params: { prompt: 'slow ambient pads in E minor, for the call limit test', duration: '120' },
          wait_seconds: 45,
        },
      });
      const seconds = (Date.now() - started) / 1000;
      expect(result.isError, textOf(result)).toBeFalsy();
      const generation = result.structuredContent as Generation;
      expect(['queued', 'processing']).toContain(generation.status);
      expect(textOf(result)).toMatch(/Call get_generation/);
      expect(seconds).toBeLessThan(8);
    } finally {
      await mcp.close();
    }
  });
});
