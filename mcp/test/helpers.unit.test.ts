/** The pure helpers: configuration, MIME types and links, what-to-do messages, task docs and price notes. */
import {
  NotFoundError,
  RateLimitedError,
  ValidationError,
  type Generation,
  type Model,
} from '@mediagen/core';
import { describe, expect, it } from 'vitest';
import {
  callTimeoutSecondsFor,
  configFromEnv,
  DEFAULT_MAX_WAIT_SECONDS,
  MAX_MAX_WAIT_SECONDS,
  parseCallTimeout,
  parseMaxWait,
} from '../src/config.js';
import { waitSecondsFor } from '../src/runTool.js';
import type { ToolContext } from '../src/context.js';
import { errorResult, mimeTypeOf, outputLinks, whatToDo } from '../src/results.js';
import { priceNote, taskFieldLines, taskParamsDescription } from '../src/taskDocs.js';

describe('config', () => {
  it('defaults the wait to 45 s, clamps it, and refuses nonsense', () => {
    expect(DEFAULT_MAX_WAIT_SECONDS).toBe(45);
    expect(parseMaxWait(undefined)).toBe(45);
    expect(parseMaxWait(' ')).toBe(45);
    expect(parseMaxWait('20')).toBe(20);
    expect(parseMaxWait('100000')).toBe(MAX_MAX_WAIT_SECONDS);
    expect(() => parseMaxWait('soon')).toThrow(/MEDIAGEN_MCP_MAX_WAIT_SECONDS must be a number/);
    expect(() => parseMaxWait('-1')).toThrow(/from 0 to/);
  });

  it('limits a tool call to 55 s, or the maximum wait + 10 s when that is longer, unless set', () => {
    expect(callTimeoutSecondsFor(45, undefined)).toBe(55);
    expect(callTimeoutSecondsFor(0, undefined)).toBe(55);
    expect(callTimeoutSecondsFor(300, undefined)).toBe(310);
    expect(callTimeoutSecondsFor(300, 30)).toBe(30);
    expect(parseCallTimeout(undefined)).toBeUndefined();
    expect(parseCallTimeout('90')).toBe(90);
    expect(configFromEnv({ MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS: '20' }).callTimeoutSeconds).toBe(20);
    expect(() => parseCallTimeout('0')).toThrow(
      /MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS must be a number of seconds from 1/,
    );
    expect(() => parseCallTimeout('later')).toThrow(/MEDIAGEN_MCP_CALL_TIMEOUT_SECONDS/);
  });

  it("bounds a call's wait by what was asked, the maximum, and the call's time left minus 5 s", () => {
    const ctx = { maxWaitSeconds: 45 } as ToolContext;
    const left = (s: number) => ({ secondsLeft: () => s });
    expect(waitSecondsFor(ctx, undefined)).toBe(45);
    expect(waitSecondsFor(ctx, 100)).toBe(45);
    expect(waitSecondsFor(ctx, 10, left(54.5))).toBe(10);
    expect(waitSecondsFor(ctx, undefined, left(54.5))).toBe(45);
    expect(waitSecondsFor(ctx, undefined, left(30.7))).toBe(25);
    expect(waitSecondsFor(ctx, undefined, left(3))).toBe(0);
  });

  it('turns previews off only when asked', () => {
    expect(configFromEnv({}).previews).toBe(true);
    expect(configFromEnv({ MEDIAGEN_MCP_PREVIEW: 'off' }).previews).toBe(false);
    expect(configFromEnv({ MEDIAGEN_MCP_PREVIEW: 'false' }).previews).toBe(false);
    expect(configFromEnv({ MEDIAGEN_MCP_PREVIEW: 'on' }).previews).toBe(true);
  });
});

describe('results', () => {
  it('derives the MIME type from the signed URL file name, else from the type', () => {
    expect(mimeTypeOf('https://h/files/abc/out.webp?sig=1&exp=2', 'image')).toBe('image/webp');
    expect(mimeTypeOf('https://h/files/abc/clip.mp4?sig=1', 'video')).toBe('video/mp4');
    expect(mimeTypeOf('https://h/files/abc/speech.wav', 'audio')).toBe('audio/wav');
    expect(mimeTypeOf('https://h/files/abc/noext', 'audio')).toBe('audio/mpeg');
  });

  it('links every output of a multi-image generation', () => {
    const generation: Generation = {
      id: 'gen_1',
      status: 'completed',
      model: 'Test',
      type: 'image',
      output_url: 'https://h/files/a/1.png',
      output_urls: ['https://h/files/a/1.png', 'https://h/files/a/2.png'],
      created_at: '2026-01-01T00:00:00Z',
      expires_at: '2026-01-08T00:00:00Z',
    };
    const links = outputLinks(generation);
    expect(links).toHaveLength(2);
    expect(links[1]).toMatchObject({
      type: 'resource_link',
      uri: 'https://h/files/a/2.png',
      mimeType: 'image/png',
      name: '2.png',
    });
    expect((links[0] as { description: string }).description).toContain('2026-01-08T00:00:00Z');
  });

  it('says when to retry a rate-limited call and keeps the request id', () => {
    const limited = new RateLimitedError('slow down', {
      status: 429,
      retryAfterMs: 2500,
      requestId: 'req-1',
    });
    expect(whatToDo(limited, { tool: 'generate' })).toBe('Too many requests: retry in 3 seconds.');
    const result = errorResult(limited, { tool: 'generate' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content[0] as { text: string }).text).toMatch(
      /^RATE_LIMITED \(HTTP 429\): slow down \[request id req-1\]/,
    );
    const invalid = new ValidationError('prompt: is required', { status: 400 });
    expect(whatToDo(invalid, { tool: 'generate' })).toMatch(/Fix the field/);
  });

  it('blames a base URL without /api/v3 for a 404, not the model or the id', () => {
    const notFound = new NotFoundError('no route for GET /models', { status: 404 });
    for (const tool of ['list_models', 'generate', 'get_generation', 'moderate']) {
      const advice = whatToDo(notFound, { tool, baseUrl: 'http://127.0.0.1:8080' });
      expect(advice).toMatch(/MEDIAGEN_BASE_URL must be the API root including \/api\/v3/);
      expect(advice).toContain('http://127.0.0.1:8080');
    }
    // With a right base URL, a 404 is still about the model or the id.
    const ok = 'http://127.0.0.1:8080/api/v3';
    expect(whatToDo(notFound, { tool: 'generate', baseUrl: ok })).toMatch(/call list_models/);
    expect(whatToDo(notFound, { tool: 'get_generation', baseUrl: ok })).toMatch(/check the id/);
  });
});

describe('task docs from the core schemas', () => {
  it('lists every task with the spec facts of its fields', () => {
    const text = taskParamsDescription();
    for (const task of [
      'text-to-image',
      'image-to-image',
      'text-to-video',
      'image-to-video',
      'reference-to-video',
      'video-to-video',
      'video-extend',
      'text-to-speech',
      'text-to-music',
    ]) {
      expect(text).toContain(`- ${task}: `);
    }
    expect(taskFieldLines('text-to-music').find((l) => l.startsWith('duration'))).toMatch(
      /one of "30", "60", "120"/,
    );
    expect(taskFieldLines('text-to-video').find((l) => l.startsWith('resolution'))).toMatch(/default "720p"/);
    expect(taskFieldLines('image-to-video').find((l) => l.startsWith('image'))).toMatch(/required/);
    expect(taskFieldLines('image-to-video').find((l) => l.startsWith('prompt'))).toMatch(/optional/);
    expect(taskFieldLines('reference-to-video').find((l) => l.startsWith('reference_images'))).toMatch(
      /at most 9/,
    );
  });

  it('quotes catalog prices for the given types only', () => {
    const catalog: Model[] = [
      { slug: 'pix', name: 'Pix', type: 'image', tasks: ['text-to-image'], price_from_usd: 0.003 },
      { slug: 'mov', name: 'Mov', type: 'video', tasks: ['text-to-video'], price_from_usd: 0.25 },
      { slug: 'swap', name: 'Swap', type: 'face-swap', tasks: ['face-swap'], price_from_usd: null },
    ];
    expect(priceNote(catalog, ['image', 'video'], 'Costs.')).toBe(
      'Costs. Catalog prices per generation: pix from $0.003, mov from $0.25.',
    );
    expect(priceNote(catalog, ['face-swap'], 'Costs.')).toBe(
      'Costs. Catalog prices per generation: swap (price not listed).',
    );
    expect(priceNote([], ['image'], 'Costs.')).toBe('Costs.');
  });
});

describe('configuration errors', () => {
  it('a missing base URL tells the user to configure the server', () => {
    const result = errorResult(
      new TypeError('mediagen: no baseUrl: pass { baseUrl } or set MEDIAGEN_BASE_URL'),
      {
        tool: 'list_models',
      },
    );
    expect((result.content[0] as { text: string }).text).toMatch(
      /^Configuration error: .*\nWhat to do: set MEDIAGEN_BASE_URL/s,
    );
  });
});
