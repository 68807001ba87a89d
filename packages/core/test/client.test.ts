import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  canonicalJson,
  fileNameFromContentDisposition,
  idempotencyKeyFor,
  MediaGenClient,
  NotFoundError,
  sha256Hex,
  type DownloadResponse,
  type Transport,
} from '../src/index.js';
import {
  collect,
  downloadResponse,
  fail,
  fakeClock,
  generation,
  mockTransport,
  ok,
} from './helpers/mocks.js';

const BASE = 'http://api.test/api/v3';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('configuration', () => {
  it('sends Authorization: Bearer only when an apiKey is given', async () => {
    const transport = mockTransport(() => ok([]));
    await new MediaGenClient({ transport, baseUrl: BASE, apiKey: 'secret' }).listModels();
    vi.stubEnv('MEDIAGEN_API_KEY', '');
    await new MediaGenClient({ transport, baseUrl: BASE }).listModels();
    expect(transport.requests[0]!.headers['authorization']).toBe('Bearer secret');
    expect(transport.requests[1]!.headers).not.toHaveProperty('authorization');
  });

  it('falls back to MEDIAGEN_API_KEY and MEDIAGEN_BASE_URL', async () => {
    vi.stubEnv('MEDIAGEN_API_KEY', 'from-env');
    vi.stubEnv('MEDIAGEN_BASE_URL', 'https://env.test/api/v3/');
    const transport = mockTransport(() => ok([]));
    const client = new MediaGenClient({ transport });
    expect(client.baseUrl).toBe('https://env.test/api/v3');
    await client.listModels();
    expect(transport.requests[0]).toMatchObject({
      method: 'GET',
      url: 'https://env.test/api/v3/models',
      headers: { authorization: 'Bearer from-env', accept: 'application/json' },
    });
  });

  it('useEnv: false ignores the environment (no Authorization picked up from the host)', async () => {
    vi.stubEnv('MEDIAGEN_API_KEY', 'host-key');
    vi.stubEnv('MEDIAGEN_BASE_URL', 'https://env.test/api/v3');
    const transport = mockTransport(() => ok([]));
    expect(() => new MediaGenClient({ transport, useEnv: false })).toThrow(/no baseUrl/);
    await new MediaGenClient({ transport, baseUrl: BASE, useEnv: false }).listModels();
    expect(transport.requests[0]!.headers).not.toHaveProperty('authorization');
  });

  it('arguments win over the environment', () => {
    vi.stubEnv('MEDIAGEN_BASE_URL', 'https://env.test/api/v3');
    expect(new MediaGenClient({ transport: mockTransport(() => ok([])), baseUrl: BASE }).baseUrl).toBe(BASE);
  });

  it('a missing or bad baseUrl is a clear error', () => {
    vi.stubEnv('MEDIAGEN_BASE_URL', '');
    const transport = mockTransport(() => ok([]));
    expect(() => new MediaGenClient({ transport })).toThrow(
      /no baseUrl: pass \{ baseUrl \} or set MEDIAGEN_BASE_URL/,
    );
    expect(() => new MediaGenClient({ transport, baseUrl: 'api.test/api/v3' })).toThrow(
      /not an absolute URL/,
    );
    expect(() => new MediaGenClient({ transport, baseUrl: 'ftp://api.test/api/v3' })).toThrow(
      /must be http or https/,
    );
  });

  it('passes the per-request timeout and extra headers to the transport', async () => {
    const transport = mockTransport(() => ok([]));
    await new MediaGenClient({
      transport,
      baseUrl: BASE,
      timeoutMs: 1234,
      headers: { 'User-Agent': 'test/1' },
    }).listModels();
    expect(transport.requests[0]).toMatchObject({ timeoutMs: 1234, headers: { 'user-agent': 'test/1' } });
    const defaults = mockTransport(() => ok([]));
    await new MediaGenClient({ transport: defaults, baseUrl: BASE }).listModels();
    expect(defaults.requests[0]!.timeoutMs).toBe(60_000);
  });
});

describe('requests per endpoint', () => {
  function setup(handler: Parameters<typeof mockTransport>[0]) {
    const transport = mockTransport(handler);
    return {
      transport,
      client: new MediaGenClient({ transport, clock: fakeClock(), baseUrl: BASE, apiKey: 'k' }),
    };
  }

  it('listModels: GET /models', async () => {
    const models = [
      {
        slug: 'flux',
        name: 'Flux',
        type: 'image',
        tasks: ['text-to-image'],
        price_from_usd: 0.003,
        extra: true,
      },
      {
        slug: 'moderation',
        name: 'Moderation',
        type: 'moderation',
        tasks: ['moderation'],
        price_from_usd: 0,
      },
    ];
    const { client, transport } = setup(() => ok(models));
    await expect(client.listModels()).resolves.toEqual(models);
    expect(transport.requests[0]).toMatchObject({ method: 'GET', url: `${BASE}/models` });
    expect(transport.requests[0]!.body).toBeUndefined();
  });

  it('submit: POST /{model}/{task} with the params as JSON, path segments encoded', async () => {
    const { client, transport } = setup(() => ok(generation(), 202));
    await client.submit('my model', 'text-to-image', { prompt: 'a cat', count: 2 });
    const req = transport.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', url: `${BASE}/my%20model/text-to-image` });
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body!)).toEqual({ prompt: 'a cat', count: 2 });
    expect(req.headers).not.toHaveProperty('idempotency-key');
  });

  it('submit accepts tasks outside the nine (a catalog may list more)', async () => {
    const { client, transport } = setup(() => ok(generation(), 202));
    await client.submit('x', 'image-upscale', { image: 'https://e.com/a.png' }, { idempotencyKey: 'key-1' });
    expect(transport.requests[0]!.url).toBe(`${BASE}/x/image-upscale`);
    expect(transport.requests[0]!.headers['idempotency-key']).toBe('key-1');
  });

  it('getGeneration: GET /status/{id}; extensions pass through', async () => {
    const g = generation({
      status: 'completed',
      output_url: 'https://e.com/1.png',
      output_urls: ['https://e.com/1.png', 'https://e.com/2.png'],
      expires_at: '2026-01-08T00:00:00Z',
    });
    const { client, transport } = setup(() => ok(g));
    await expect(client.getGeneration('a/b')).resolves.toEqual(g);
    expect(transport.requests[0]!.url).toBe(`${BASE}/status/a%2Fb`);
    expect(transport.requests[0]!.headers).not.toHaveProperty('prefer');
  });

  it('getGeneration with waitSeconds sends Prefer and lengthens the request timeout', async () => {
    const { client, transport } = setup(() => ok(generation()));
    await client.getGeneration('g', { waitSeconds: 45 });
    expect(transport.requests[0]!.headers['prefer']).toBe('wait=45');
    expect(transport.requests[0]!.timeoutMs).toBe(60_000);
  });

  it('detectFaces: POST /face-swap/detect {source_image}', async () => {
    const { client, transport } = setup(() => ok({ faces: [], message: 'No faces were found in the image' }));
    await expect(client.detectFaces('https://e.com/p.jpg')).resolves.toEqual({
      faces: [],
      message: 'No faces were found in the image',
    });
    expect(transport.requests[0]).toMatchObject({ method: 'POST', url: `${BASE}/face-swap/detect` });
    expect(JSON.parse(transport.requests[0]!.body!)).toEqual({ source_image: 'https://e.com/p.jpg' });
  });

  it('faceSwap: POST /face-swap', async () => {
    const { client, transport } = setup(() => ok(generation({ type: 'video', model: 'Face Swap' }), 202));
    const g = await client.faceSwap('https://e.com/f.png', 'https://e.com/t.gif');
    expect(g.type).toBe('video');
    expect(JSON.parse(transport.requests[0]!.body!)).toEqual({
      source_face_url: 'https://e.com/f.png',
      target_media: 'https://e.com/t.gif',
    });
  });

  it('moderate: POST /moderation with the request; video result', async () => {
    const result = {
      nsfw: true,
      score: 0.93,
      threshold: 0.5,
      media_type: 'video',
      policy: 'nsfw',
      duration_ms: 2100,
      frames_checked: 2,
      frames: [
        { timestamp: 0.5, score: 0.1 },
        { timestamp: 2.5, score: 0.93 },
      ],
    };
    const { client, transport } = setup(() => ok(result));
    await expect(client.moderate({ video_url: 'https://e.com/v.mp4', max_frames: 4 })).resolves.toEqual(
      result,
    );
    expect(JSON.parse(transport.requests[0]!.body!)).toEqual({
      video_url: 'https://e.com/v.mp4',
      max_frames: 4,
    });
  });
});

describe('download', () => {
  function setup(response: DownloadResponse | (() => DownloadResponse), apiKey = 'k') {
    const calls: Array<{ url: string; headers: Record<string, string> }> = [];
    const transport: Transport = {
      request: async () => ok([]),
      download: async (req) => {
        calls.push(req);
        return typeof response === 'function' ? response() : response;
      },
    };
    return { calls, client: new MediaGenClient({ transport, clock: fakeClock(), baseUrl: BASE, apiKey }) };
  }

  it('streams the body with content type, Content-Disposition file name and length', async () => {
    const { client, calls } = setup(
      downloadResponse(
        200,
        {
          'content-type': 'image/png',
          'content-disposition': 'attachment; filename="cat 1.png"',
          'content-length': '6',
        },
        'abc',
        'def',
      ),
    );
    const file = await client.download('http://api.test/files/x/sig?exp=1');
    expect(file).toMatchObject({ contentType: 'image/png', fileName: 'cat 1.png', contentLength: 6 });
    expect(await collect(file.body)).toBe('abcdef');
    expect(calls[0]!.headers['authorization']).toBe('Bearer k');
  });

  it('falls back to the URL path last segment and octet-stream', async () => {
    const { client } = setup(downloadResponse(200, {}, 'x'));
    const file = await client.download('https://cdn.example.com/out/gen%201.mp4?sig=abc');
    expect(file).toMatchObject({ contentType: 'application/octet-stream', fileName: 'gen 1.mp4' });
    expect(file.contentLength).toBeUndefined();
  });

  it('never sends the API key to another origin', async () => {
    const { client, calls } = setup(downloadResponse(200, {}, 'x'));
    await client.download('https://cdn.example.com/a.png');
    expect(calls[0]!.headers).not.toHaveProperty('authorization');
  });

  it('maps a failing download to the typed error', async () => {
    const { client } = setup(
      downloadResponse(
        404,
        { 'x-request-id': 'r1' },
        JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message: 'link expired' } }),
      ),
    );
    await expect(client.download('http://api.test/files/x')).rejects.toMatchObject({
      constructor: NotFoundError,
      message: 'link expired',
      requestId: 'r1',
    });
  });

  it('retries a 503 download', async () => {
    let n = 0;
    const { client, calls } = setup(() =>
      ++n === 1 ? downloadResponse(503, {}, 'busy') : downloadResponse(200, {}, 'ok'),
    );
    const file = await client.download('http://api.test/files/a.png');
    expect(await collect(file.body)).toBe('ok');
    expect(calls).toHaveLength(2);
  });

  it('refuses a non-http URL and a transport without download()', async () => {
    const { client } = setup(downloadResponse(200, {}, 'x'));
    await expect(client.download('file:///etc/passwd')).rejects.toThrow(/not an http\(s\) URL/);
    const bare = new MediaGenClient({ transport: mockTransport(() => ok([])), baseUrl: BASE });
    await expect(bare.download('http://api.test/a.png')).rejects.toThrow(/cannot stream downloads/);
  });
});

describe('Content-Disposition file names', () => {
  it.each([
    ['attachment; filename="a.png"', 'a.png'],
    ['attachment; filename=a.png', 'a.png'],
    ['inline; filename="say \\"hi\\".mp3"', 'say "hi".mp3'],
    ['attachment; filename="fallback.png"; filename*=UTF-8\'\'%E7%8C%AB.png', '猫.png'],
    ["attachment; filename*=utf-8''caf%C3%A9.webp", 'café.webp'],
    ['attachment', undefined],
  ])('%s -> %s', (header, name) => {
    expect(fileNameFromContentDisposition(header)).toBe(name);
  });
  it('strips directories from a hostile name', async () => {
    const transport: Transport = {
      request: async () => ok([]),
      download: async () =>
        downloadResponse(200, { 'content-disposition': 'attachment; filename="../../etc/passwd"' }, 'x'),
    };
    const file = await new MediaGenClient({ transport, baseUrl: BASE }).download('http://api.test/f');
    expect(file.fileName).toBe('passwd');
  });
});

describe('idempotencyKeyFor', () => {
  it('sha256Hex matches node:crypto on many lengths', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 1000]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 0xff);
      expect(sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
  it('is stable across key order and differs for different parts', () => {
    const a = idempotencyKeyFor({ model: 'flux', task: 'text-to-image', params: { prompt: 'a', count: 2 } });
    const b = idempotencyKeyFor({ params: { count: 2, prompt: 'a' }, task: 'text-to-image', model: 'flux' });
    const c = idempotencyKeyFor({ model: 'flux', task: 'text-to-image', params: { prompt: 'a', count: 3 } });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).toMatch(/^mg-[0-9a-f]{64}$/);
    expect(canonicalJson({ b: [1, { d: undefined, c: 'x' }], a: null })).toBe('{"a":null,"b":[1,{"c":"x"}]}');
  });
});

describe('errors keep the server message', () => {
  it('a 404 on submit says which model', async () => {
    const transport = mockTransport(() => fail(404, 'NOT_FOUND', 'model "nope" not found'));
    const client = new MediaGenClient({ transport, baseUrl: BASE });
    await expect(client.submit('nope', 'text-to-image', { prompt: 'a' })).rejects.toThrow(
      'model "nope" not found',
    );
  });
});
