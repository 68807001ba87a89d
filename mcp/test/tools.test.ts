/**
 * Every tool in process: the SDK's Client over InMemoryTransport, the MCP server, the core client over
 * real HTTP, and a REAL mediagen server (embedded PostgreSQL, API, worker) started by globalSetup.
 */
import { CallToolResultSchema, type ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { MediaGenClient, type Generation, type Model, type TransportRequest } from '@mediagen/core';
import { undiciTransport } from '@mediagen/core/undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectInProcess, contentOf, fixtureUrl, jsonTextOf, textOf } from './helpers.js';

let mcp: Awaited<ReturnType<typeof connectInProcess>>;
let models: Model[];
let imageModel: Model;

function modelFor(task: string): Model {
  const found = models.find((m) => m.tasks.includes(task));
  if (!found) throw new Error(`no model in the catalog offers ${task}`);
  return found;
}

beforeAll(async () => {
  mcp = await connectInProcess();
  const result = await mcp.client.callTool({ name: 'list_models', arguments: {} });
  models = (result.structuredContent as { models: Model[] }).models;
  imageModel = modelFor('text-to-image');
});

afterAll(async () => {
  await mcp?.close();
});

describe('tools/list', () => {
  it('declares the six tools with honest annotations, output schemas and cost notes', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(
      ['detect_faces', 'face_swap', 'generate', 'get_generation', 'list_models', 'moderate'].sort(),
    );
    for (const name of ['list_models', 'get_generation', 'detect_faces']) {
      expect(byName[name]!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    }
    expect(byName.moderate!.annotations).toMatchObject({ readOnlyHint: true });
    for (const name of ['generate', 'face_swap']) {
      expect(byName[name]!.annotations).toMatchObject({
        readOnlyHint: false,
        idempotentHint: false,
        openWorldHint: true,
      });
      expect(byName[name]!.description).toMatch(/COSTS MONEY/);
    }
    expect(byName.moderate!.description).toMatch(/\$0\.001 per call/);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');
    // The params description is generated from the core's task schemas: every task and its fields.
    const params = (byName.generate!.inputSchema.properties as Record<string, { description?: string }>)
      .params;
    expect(params?.description).toMatch(/text-to-image: prompt \(string, required\)/);
    expect(params?.description).toMatch(/count \(integer, 1 to 4, optional, default 1\)/);
    expect(params?.description).toMatch(/reference-to-video: /);
  });

  it('quotes catalog prices in the charged tools when given the catalog', async () => {
    const withCatalog = await connectInProcess({ catalog: models });
    try {
      const { tools } = await withCatalog.client.listTools();
      const generate = tools.find((t) => t.name === 'generate')!;
      expect(generate.description).toContain(imageModel.slug);
      expect(generate.description).toMatch(/Catalog prices per generation: .*from \$/);
    } finally {
      await withCatalog.close();
    }
  });
});

describe('list_models', () => {
  it('returns the catalog as structuredContent and the same JSON as text', async () => {
    const result = await mcp.client.callTool({ name: 'list_models', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(jsonTextOf(result)).toEqual(result.structuredContent);
    expect(models.length).toBeGreaterThan(0);
    expect(models.some((m) => m.type === 'moderation')).toBe(true);
  });

  it('filters by type', async () => {
    const result = await mcp.client.callTool({ name: 'list_models', arguments: { type: 'video' } });
    const list = (result.structuredContent as { models: Model[] }).models;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((m) => m.type === 'video')).toBe(true);
  });
});

describe('generate', () => {
  it(
    'submits, reports progress, and returns the output as a resource_link with a small preview',
    { timeout: 240_000 },
    async () => {
      const progress: { progress: number; message?: string }[] = [];
      const result = await mcp.client.callTool(
        {
          name: 'generate',
          arguments: {
            model: imageModel.slug,
            task: 'text-to-image',
            params: { prompt: 'a red apple on a wooden table', seed: 1 },
          },
        },
        CallToolResultSchema,
        { onprogress: (p) => progress.push(p), timeout: 120_000 },
      );
      expect(result.isError, textOf(result)).toBeFalsy();
      const generation = result.structuredContent as Generation;
      expect(generation.status).toBe('completed');
      expect(generation.type).toBe('image');
      expect(jsonTextOf(result)).toEqual(generation);
      // Progress: first the submit, then one per poll, increasing.
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress[0]!.message).toMatch(/submitted image generation/);
      for (let i = 1; i < progress.length; i++)
        expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
      const link = contentOf(result).find((c) => c.type === 'resource_link') as Extract<
        ContentBlock,
        { type: 'resource_link' }
      >;
      expect(link.uri).toBe(generation.output_url);
      expect(link.mimeType).toMatch(/^image\//);
      // The link is real: the output downloads with that type.
      const response = await fetch(link.uri);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(link.mimeType);
      await response.arrayBuffer();
      // A preview thumbnail, never the full file: small JPEG.
      const preview = contentOf(result).find((c) => c.type === 'image') as Extract<
        ContentBlock,
        { type: 'image' }
      >;
      expect(preview.mimeType).toBe('image/jpeg');
      expect(preview.data.length).toBeLessThan(100_000);
      expect(Buffer.from(preview.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    },
  );

  it('does not charge twice for a retried call: identical arguments give the same generation', async () => {
    const args = {
      name: 'generate',
      arguments: {
        model: imageModel.slug,
        task: 'text-to-image',
        params: { prompt: 'idempotency check', seed: 7 },
        wait_seconds: 0,
      },
    };
    const first = await mcp.client.callTool(args);
    const second = await mcp.client.callTool(args);
    expect(first.isError, textOf(first)).toBeFalsy();
    expect((second.structuredContent as Generation).id).toBe((first.structuredContent as Generation).id);
    const other = await mcp.client.callTool({
      ...args,
      arguments: { ...args.arguments, params: { prompt: 'idempotency check', seed: 8 } },
    });
    expect((other.structuredContent as Generation).id).not.toBe((first.structuredContent as Generation).id);
  });

  it(
    'hands over to get_generation when the wait runs out, and get_generation waits again',
    { timeout: 240_000 },
    async () => {
      const submitted = await mcp.client.callTool({
        name: 'generate',
        arguments: {
          model: imageModel.slug,
          task: 'text-to-image',
          params: { prompt: 'a lighthouse at dusk' },
          wait_seconds: 0,
        },
      });
      expect(submitted.isError, textOf(submitted)).toBeFalsy();
      const generation = submitted.structuredContent as Generation;
      expect(generation.status).toBe('processing');
      expect(generation.output_url).toBeNull();
      expect(textOf(submitted)).toContain(`Call get_generation with id "${generation.id}"`);
      expect(contentOf(submitted).some((c) => c.type === 'resource_link')).toBe(false);

      const progress: unknown[] = [];
      const done = await mcp.client.callTool(
        { name: 'get_generation', arguments: { id: generation.id } },
        CallToolResultSchema,
        { onprogress: (p) => progress.push(p), timeout: 120_000 },
      );
      expect(done.isError, textOf(done)).toBeFalsy();
      expect((done.structuredContent as Generation).status).toBe('completed');
      expect((done.structuredContent as Generation).id).toBe(generation.id);
      expect(progress.length).toBeGreaterThanOrEqual(1);
    },
  );

  it('with a short configured maximum, returns processing with the sentence instead of blocking', async () => {
    const short = await connectInProcess({ maxWaitSeconds: 1 });
    try {
      // 120 s of music takes several CPU seconds even on an idle machine, far more than the 1 s wait
      // (a short 480p video once finished inside it on a quiet machine and made this test flaky).
      const result = await short.client.callTool({
        name: 'generate',
        arguments: {
          model: modelFor('text-to-music').slug,
          task: 'text-to-music',
          params: { prompt: 'slow ambient pads in D minor', duration: '120' },
        },
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      const generation = result.structuredContent as Generation;
      expect(['queued', 'processing']).toContain(generation.status);
      expect(textOf(result)).toMatch(/still (queued|processing) after waiting \d+ s.*Call get_generation/s);
    } finally {
      await short.close();
    }
  });

  it('names the wrong field and submits nothing', async () => {
    const result = await mcp.client.callTool({
      name: 'generate',
      arguments: {
        model: imageModel.slug,
        task: 'text-to-image',
        params: { prompt: 'x', count: 9, colour: 'red' },
      },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/params\.count: must be at most 4/);
    expect(textOf(result)).toMatch(/unknown field "colour"/);
    expect(textOf(result)).toMatch(/nothing was submitted or charged/);
    expect(result.structuredContent).toBeUndefined();
  });

  it('a misspelt argument of any tool is named back instead of being dropped (treshold is not threshold)', async () => {
    const calls = [
      { name: 'moderate', arguments: { text: 'The council approved the budget.', treshold: 0.1 } },
      {
        name: 'generate',
        arguments: { model: imageModel.slug, task: 'text-to-image', params: { prompt: 'x' }, wait: 1 },
      },
      { name: 'list_models', arguments: { kind: 'video' } },
      { name: 'get_generation', arguments: { id: 'x', waitSeconds: 0 } },
      { name: 'detect_faces', arguments: { image: fixtureUrl('faces/portrait-hopper.jpg') } },
      {
        name: 'face_swap',
        arguments: { source_image: 'https://example.com/a.jpg', target: 'https://example.com/b.jpg' },
      },
    ];
    for (const call of calls) {
      const result = await mcp.client.callTool(call);
      const extra = Object.keys(call.arguments).find(
        (k) => !['text', 'model', 'task', 'params', 'id', 'source_image'].includes(k),
      )!;
      expect(result.isError, call.name).toBe(true);
      expect(textOf(result), call.name).toMatch(
        new RegExp(`Invalid arguments for tool ${call.name}.*Unrecognized key.*"${extra}"`, 's'),
      );
    }
  });

  it('an unknown model is an isError that points at list_models', async () => {
    const result = await mcp.client.callTool({
      name: 'generate',
      arguments: { model: 'no-such-model', task: 'text-to-image', params: { prompt: 'x' } },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/NOT_FOUND \(HTTP 404\)/);
    expect(textOf(result)).toMatch(/call list_models/);
  });

  it('an account without credit gets PAYMENT_REQUIRED and is told to top up', async () => {
    const broke = await connectInProcess({ apiKey: inject('brokeApiKey') });
    try {
      const result = await broke.client.callTool({
        name: 'generate',
        arguments: { model: imageModel.slug, task: 'text-to-image', params: { prompt: 'x' } },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/PAYMENT_REQUIRED \(HTTP 402\)/);
      expect(textOf(result)).toMatch(/top up/);
    } finally {
      await broke.close();
    }
  });

  it('a bad API key gets UNAUTHORIZED and is told where the key goes', async () => {
    const bad = await connectInProcess({ apiKey: 'mg_not_a_real_key' });
    try {
      const result = await bad.client.callTool({ name: 'list_models', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/UNAUTHORIZED \(HTTP 401\)/);
      expect(textOf(result)).toMatch(/MEDIAGEN_API_KEY/);
    } finally {
      await bad.close();
    }
  });
});

describe('cancellation', () => {
  it("the client's cancellation stops the wait: no more status polls after it", async () => {
    const requests: TransportRequest[] = [];
    const inner = undiciTransport();
    const client = new MediaGenClient({
      baseUrl: inject('baseUrl'),
      apiKey: inject('apiKey'),
      transport: {
        request: (req) => {
          requests.push(req);
          return inner.request(req);
        },
        download: inner.download!.bind(inner),
      },
    });
    const counting = await connectInProcess({ client, maxWaitSeconds: 120 });
    try {
      const controller = new AbortController();
      let submitted!: () => void;
      const wasSubmitted = new Promise<void>((resolve) => (submitted = resolve));
      const call = counting.client.callTool(
        {
          name: 'generate',
          arguments: {
            model: imageModel.slug,
            task: 'text-to-image',
            params: { prompt: 'cancel me', seed: 99 },
          },
        },
        CallToolResultSchema,
        {
          signal: controller.signal,
          timeout: 120_000,
          onprogress: (p) => {
            if (/^submitted/.test(p.message ?? '')) submitted();
          },
        },
      );
      call.catch(() => {});
      // Cancel while the tool sleeps before its first poll (image: 3 s). Without the signal wired
      // through, it would poll at 3 s and keep polling for up to 120 s.
      await wasSubmitted;
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      const polls = () => requests.filter((r) => r.url.includes('/status/')).length;
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(requests.some((r) => r.method === 'POST')).toBe(true);
      expect(polls()).toBe(0);
    } finally {
      await counting.close();
    }
  }, 90_000);
});

describe('get_generation', () => {
  it('an unknown id is NOT_FOUND with what to do', async () => {
    const result = await mcp.client.callTool({
      name: 'get_generation',
      arguments: { id: 'gen_does_not_exist', wait_seconds: 0 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/NOT_FOUND/);
    expect(textOf(result)).toMatch(/check the id/);
  });

  it('an id or model that cannot go into a URL is named back, not "URI malformed"', async () => {
    const cases = [
      {
        name: 'get_generation',
        arguments: { id: 'abc\ud800' },
        field: 'id',
        limit: /unpaired UTF-16 surrogates/,
      },
      {
        name: 'get_generation',
        arguments: { id: 'a'.repeat(100_000) },
        field: 'id',
        limit: /at most 256 characters/,
      },
      {
        name: 'generate',
        arguments: { model: '\udc00', task: 'text-to-image', params: { prompt: 'x' } },
        field: 'model',
        limit: /unpaired UTF-16 surrogates/,
      },
      {
        name: 'generate',
        arguments: { model: 'm'.repeat(100_000), task: 'text-to-image', params: { prompt: 'x' } },
        field: 'model',
        limit: /at most 256 characters/,
      },
    ];
    for (const { field, limit, ...call } of cases) {
      const result = await mcp.client.callTool(call);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(new RegExp(`\\b${field}\\b`));
      expect(textOf(result)).toMatch(limit);
      expect(textOf(result)).not.toMatch(/URI malformed|headers are too large/);
    }
  });
});

describe('detect_faces and face_swap', () => {
  it('detects the faces of a portrait and links each crop', async () => {
    const result = await mcp.client.callTool({
      name: 'detect_faces',
      arguments: { source_image: fixtureUrl('portrait-astronaut.jpg') },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const faces = (result.structuredContent as { faces: string[] }).faces;
    expect(faces.length).toBeGreaterThanOrEqual(1);
    const links = contentOf(result).filter((c) => c.type === 'resource_link');
    expect(links.map((l) => (l as { uri: string }).uri)).toEqual(faces);
  });

  it('says so when there is no face', async () => {
    const result = await mcp.client.callTool({
      name: 'detect_faces',
      arguments: { source_image: fixtureUrl('no-face-cat.jpg') },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.structuredContent as { faces: string[] }).faces).toEqual([]);
    expect(textOf(result)).toMatch(/No face found/);
  });

  it('swaps a face given the whole source image and a face index', { timeout: 240_000 }, async () => {
    const result = await mcp.client.callTool(
      {
        name: 'face_swap',
        arguments: {
          source_image: fixtureUrl('portrait-astronaut.jpg'),
          face_index: 0,
          target_media: fixtureUrl('portrait-hopper.jpg'),
        },
      },
      CallToolResultSchema,
      { timeout: 120_000 },
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    let generation = result.structuredContent as Generation;
    expect(generation.type).toBe('image');
    let final = result;
    if (generation.status !== 'completed') {
      // Slow machine: the bounded wait handed over; get_generation finishes the job.
      expect(textOf(result)).toContain('Call get_generation');
      final = await mcp.client.callTool(
        { name: 'get_generation', arguments: { id: generation.id } },
        CallToolResultSchema,
        {
          timeout: 120_000,
        },
      );
      generation = final.structuredContent as Generation;
    }
    expect(generation.status).toBe('completed');
    const link = contentOf(final).find((c) => c.type === 'resource_link') as {
      uri: string;
      mimeType: string;
    };
    expect(link.uri).toBe(generation.output_url);
    expect(link.mimeType).toMatch(/^image\//);
    // A retried call (same arguments) is replayed, not charged again, although detection signs a new
    // face URL each time.
    const retried = await mcp.client.callTool({
      name: 'face_swap',
      arguments: {
        source_image: fixtureUrl('portrait-astronaut.jpg'),
        face_index: 0,
        target_media: fixtureUrl('portrait-hopper.jpg'),
        wait_seconds: 0,
      },
    });
    expect(retried.isError, textOf(retried)).toBeFalsy();
    expect((retried.structuredContent as Generation).id).toBe(generation.id);
  });

  it('refuses both or neither of source_face_url and source_image, and an out-of-range face_index', async () => {
    const neither = await mcp.client.callTool({
      name: 'face_swap',
      arguments: { target_media: fixtureUrl('portrait-hopper.jpg') },
    });
    expect(neither.isError).toBe(true);
    expect(textOf(neither)).toMatch(/exactly one of source_face_url and source_image \(neither/);
    const outOfRange = await mcp.client.callTool({
      name: 'face_swap',
      arguments: {
        source_image: fixtureUrl('portrait-astronaut.jpg'),
        face_index: 99,
        target_media: fixtureUrl('portrait-hopper.jpg'),
      },
    });
    expect(outOfRange.isError).toBe(true);
    expect(textOf(outOfRange)).toMatch(/face_index 99 is out of range/);
  });
});

describe('moderate', () => {
  it('classifies text and returns the verdict as structuredContent', async () => {
    const result = await mcp.client.callTool({
      name: 'moderate',
      arguments: { text: 'A quiet walk in the park.' },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      media_type: 'text',
      policy: 'nsfw',
      threshold: 0.5,
      nsfw: false,
    });
    expect(jsonTextOf(result)).toEqual(result.structuredContent);
  });

  it('classifies an image by URL', async () => {
    const result = await mcp.client.callTool({
      name: 'moderate',
      arguments: { image_url: fixtureUrl('portrait-hopper.jpg'), threshold: 0.9 },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ media_type: 'image', threshold: 0.9 });
  });

  it('names the rule when more than one input is given', async () => {
    const result = await mcp.client.callTool({
      name: 'moderate',
      arguments: { text: 'hello', image_url: fixtureUrl('portrait-hopper.jpg') },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/send exactly one of image_url, video_url, text/);
  });

  it('reports the limit of a field out of range', async () => {
    const result = await mcp.client.callTool({
      name: 'moderate',
      arguments: { text: 'hello', threshold: 2 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/threshold/);
    expect(textOf(result)).toMatch(/1/);
  });
});
