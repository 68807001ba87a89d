import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  DEFAULT_RETRY_OPTIONS,
  InternalError,
  isRetryable,
  MediaGenClient,
  NetworkError,
  parseRetryAfter,
  RateLimitedError,
  resolveRetryOptions,
  TransportError,
  type RetryOptions,
} from '../src/index.js';
import { fail, fakeClock, generation, ok, scriptedTransport } from './helpers/mocks.js';

const BASE = 'http://api.test/api/v3';
const NOW = Date.UTC(2026, 0, 1);

function setup(script: Parameters<typeof scriptedTransport>[0], retry: Partial<RetryOptions> = {}) {
  const transport = scriptedTransport(script);
  const clock = fakeClock(NOW);
  const client = new MediaGenClient({
    transport,
    clock,
    apiKey: 'k',
    baseUrl: BASE,
    retry: { random: () => 0.5, ...retry },
  });
  return { client, transport, clock };
}

const refused = () => {
  throw new TransportError('connect ECONNREFUSED 127.0.0.1:1', true);
};
const reset = () => {
  throw new TransportError('socket hang up (ECONNRESET)', false);
};

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
  });
  it('reads an HTTP-date relative to now, never negative', () => {
    expect(parseRetryAfter(new Date(NOW + 4000).toUTCString(), NOW)).toBe(4000);
    expect(parseRetryAfter(new Date(NOW - 4000).toUTCString(), NOW)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-3', NOW)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('is full jitter under an exponential cap', () => {
    const options = resolveRetryOptions({ random: () => 0.999999 });
    expect([0, 1, 2, 3].map((n) => backoffDelayMs(n, options))).toEqual([499, 999, 1999, 3999]);
    expect(backoffDelayMs(0, resolveRetryOptions({ random: () => 0 }))).toBe(0);
    expect(backoffDelayMs(30, options)).toBe(DEFAULT_RETRY_OPTIONS.maxDelayMs - 1);
  });
  it('has sane defaults', () => {
    expect(DEFAULT_RETRY_OPTIONS).toMatchObject({
      maxRetries: 3,
      baseDelayMs: 500,
      maxDelayMs: 20_000,
      maxRetryAfterMs: 60_000,
    });
    expect(resolveRetryOptions({ maxRetries: undefined as unknown as number }).maxRetries).toBe(3);
  });
});

describe('isRetryable', () => {
  const get = { method: 'GET', idempotent: false } as const;
  const post = { method: 'POST', idempotent: false } as const;
  const keyedPost = { method: 'POST', idempotent: true } as const;
  it.each([
    ['429 GET', { kind: 'response', status: 429 }, get, true],
    ['429 POST', { kind: 'response', status: 429 }, post, true],
    ['500 GET', { kind: 'response', status: 500 }, get, false],
    ['500 POST', { kind: 'response', status: 500 }, post, false],
    ['502 GET', { kind: 'response', status: 502 }, get, true],
    ['503 GET', { kind: 'response', status: 503 }, get, true],
    ['504 GET', { kind: 'response', status: 504 }, get, true],
    ['503 POST', { kind: 'response', status: 503 }, post, false],
    ['503 POST with key', { kind: 'response', status: 503 }, keyedPost, true],
    ['400 GET', { kind: 'response', status: 400 }, get, false],
    ['404 GET', { kind: 'response', status: 404 }, get, false],
    ['network notSent POST', { kind: 'network', notSent: true }, post, true],
    ['network maybe-sent POST', { kind: 'network', notSent: false }, post, false],
    ['network maybe-sent POST with key', { kind: 'network', notSent: false }, keyedPost, true],
    ['network maybe-sent GET', { kind: 'network', notSent: false }, get, true],
  ] as const)('%s -> %s', (_name, outcome, context, expected) => {
    expect(isRetryable(outcome, context)).toBe(expected);
  });
});

describe('client retries', () => {
  it('a 429 with Retry-After (seconds) waits exactly that long, then succeeds', async () => {
    const { client, transport, clock } = setup([
      fail(429, 'RATE_LIMITED', 'slow', { 'retry-after': '2' }),
      ok(generation(), 202),
    ]);
    const result = await client.submit('m', 'text-to-image', { prompt: 'a' });
    expect(result.id).toBe('gen_1');
    expect(transport.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([2000]);
    expect(transport.requests[1]!.body).toBe(transport.requests[0]!.body);
  });

  it('a 429 with Retry-After as an HTTP-date waits until then', async () => {
    const when = new Date(NOW + 5000).toUTCString();
    const { client, clock } = setup([fail(429, 'RATE_LIMITED', 'slow', { 'retry-after': when }), ok([])]);
    await client.listModels();
    expect(clock.sleeps).toEqual([5000]);
  });

  it('a 429 without Retry-After backs off with jitter', async () => {
    const { client, clock } = setup([
      fail(429, 'RATE_LIMITED', 'slow'),
      fail(429, 'RATE_LIMITED', 'slow'),
      ok([]),
    ]);
    await client.listModels();
    expect(clock.sleeps).toEqual([250, 500]);
  });

  it('a Retry-After longer than maxRetryAfterMs is not slept through: RateLimitedError at once', async () => {
    const { client, transport, clock } = setup([
      fail(429, 'RATE_LIMITED', 'come back tomorrow', { 'retry-after': '86400' }),
    ]);
    const error = await client.listModels().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(86_400_000);
    expect(transport.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('gives up after maxRetries with the last error', async () => {
    const script = Array.from({ length: 4 }, () => fail(429, 'RATE_LIMITED', 'slow', { 'retry-after': '1' }));
    const { client, transport, clock } = setup(script);
    await expect(client.listModels()).rejects.toBeInstanceOf(RateLimitedError);
    expect(transport.requests).toHaveLength(4);
    expect(clock.sleeps).toEqual([1000, 1000, 1000]);
  });

  it('maxRetries 0 disables retrying', async () => {
    const { client, transport } = setup([fail(429, 'RATE_LIMITED', 'slow', { 'retry-after': '1' })], {
      maxRetries: 0,
    });
    await expect(client.listModels()).rejects.toBeInstanceOf(RateLimitedError);
    expect(transport.requests).toHaveLength(1);
  });

  it('a 500 on submit is NOT retried', async () => {
    const { client, transport, clock } = setup([fail(500, 'INTERNAL_ERROR', 'boom'), ok(generation(), 202)]);
    await expect(client.submit('m', 'text-to-image', { prompt: 'a' })).rejects.toBeInstanceOf(InternalError);
    expect(transport.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('a 503 on submit without an Idempotency-Key is NOT retried', async () => {
    const { client, transport } = setup([{ status: 503, headers: {}, body: '' }, ok(generation(), 202)]);
    await expect(client.submit('m', 'text-to-image', { prompt: 'a' })).rejects.toBeInstanceOf(InternalError);
    expect(transport.requests).toHaveLength(1);
  });

  it('a 503 on submit WITH an Idempotency-Key is retried with the same key', async () => {
    const { client, transport } = setup([{ status: 503, headers: {}, body: '' }, ok(generation(), 202)]);
    await client.submit('m', 'text-to-image', { prompt: 'a' }, { idempotencyKey: 'abc' });
    expect(transport.requests.map((r) => r.headers['idempotency-key'])).toEqual(['abc', 'abc']);
  });

  it('a network error on GET is retried', async () => {
    const { client, transport, clock } = setup([
      reset,
      ok(generation({ status: 'completed', output_url: 'https://e.com/a.png' })),
    ]);
    const result = await client.getGeneration('gen_1');
    expect(result.status).toBe('completed');
    expect(transport.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([250]);
  });

  it('502/503/504 on GET are retried', async () => {
    const { client, transport } = setup([
      { status: 502, headers: {}, body: 'bad gateway' },
      { status: 503, headers: { 'retry-after': '1' }, body: '' },
      { status: 504, headers: {}, body: '' },
      ok([]),
    ]);
    await expect(client.listModels()).resolves.toEqual([]);
    expect(transport.requests).toHaveLength(4);
  });

  it('a 500 on GET is not retried (it is the spec answer INTERNAL_ERROR)', async () => {
    const { client, transport } = setup([fail(500, 'INTERNAL_ERROR', 'status retrieval failed'), ok([])]);
    await expect(client.getGeneration('x')).rejects.toBeInstanceOf(InternalError);
    expect(transport.requests).toHaveLength(1);
  });

  it('a POST that may have reached the server (reset) is not retried: NetworkError', async () => {
    const { client, transport } = setup([reset, ok(generation(), 202)]);
    const error = (await client
      .submit('m', 'text-to-image', { prompt: 'a' })
      .catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR', notSent: false });
    expect(error.message).toMatch(/^POST \/m\/text-to-image: socket hang up/);
    expect(transport.requests).toHaveLength(1);
  });

  it('a POST that surely never left (connection refused) is retried', async () => {
    const { client, transport } = setup([refused, ok(generation(), 202)]);
    await client.submit('m', 'text-to-image', { prompt: 'a' });
    expect(transport.requests).toHaveLength(2);
  });

  it('a POST that may have reached the server is retried when it carries an Idempotency-Key', async () => {
    const { client, transport } = setup([reset, ok(generation(), 202)]);
    await client.faceSwap('https://e.com/face.png', 'https://e.com/t.png', { idempotencyKey: 'swap-1' });
    expect(transport.requests).toHaveLength(2);
  });

  it('moderation (billed, no key) is not retried after a reset', async () => {
    const { client, transport } = setup([reset]);
    await expect(client.moderate({ text: 'x' })).rejects.toBeInstanceOf(NetworkError);
    expect(transport.requests).toHaveLength(1);
  });

  it('face detection (free) is retried after a reset', async () => {
    const { client, transport } = setup([reset, ok({ faces: [], message: 'No faces found' })]);
    await expect(client.detectFaces('https://e.com/p.png')).resolves.toMatchObject({ faces: [] });
    expect(transport.requests).toHaveLength(2);
  });

  it('unknown transport failures count as maybe-sent', async () => {
    const { client, transport } = setup([
      () => {
        throw new Error('weird');
      },
    ]);
    const error = (await client.moderate({ text: 'x' }).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.notSent).toBe(false);
    expect(transport.requests).toHaveLength(1);
  });

  it('an abort during a retry sleep rejects with the abort reason and stops', async () => {
    const controller = new AbortController();
    const transport = scriptedTransport([fail(429, 'RATE_LIMITED', 'slow', { 'retry-after': '30' }), ok([])]);
    const clock = fakeClock(NOW);
    clock.sleep = (_ms, signal) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        controller.abort(new Error('user gave up'));
      });
    const client = new MediaGenClient({ transport, clock, baseUrl: BASE });
    await expect(client.listModels({ signal: controller.signal })).rejects.toThrow('user gave up');
    expect(transport.requests).toHaveLength(1);
  });
});
