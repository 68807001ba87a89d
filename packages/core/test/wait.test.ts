import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WAIT_TIMEOUT_MS,
  GenerationFailedError,
  MediaGenClient,
  NotFoundError,
  WaitTimeoutError,
  type Generation,
  type TransportRequest,
  type WaitProgress,
} from '../src/index.js';
import { fail, fakeClock, generation, mockTransport, ok } from './helpers/mocks.js';

const BASE = 'http://api.test/api/v3';

/** A server where submit answers `processing` and the n-th status poll answers statuses[n]. */
function server(type: 'image' | 'video' | 'audio', statuses: Array<Partial<Generation> | 'error404'>) {
  let polls = 0;
  const transport = mockTransport((req: TransportRequest) => {
    if (req.method === 'POST') return ok(generation({ type }), 202);
    const step = statuses[Math.min(polls, statuses.length - 1)]!;
    polls += 1;
    if (step === 'error404') return fail(404, 'NOT_FOUND', 'generation not found');
    return ok(generation({ type, ...step }), 200, { 'x-request-id': `poll-${polls}` });
  });
  const clock = fakeClock();
  const client = new MediaGenClient({ transport, clock, apiKey: 'k', baseUrl: BASE });
  const statusRequests = () => transport.requests.filter((r) => r.method === 'GET');
  return { client, transport, clock, statusRequests };
}

const done = (url = 'https://e.com/out.png') => ({ status: 'completed' as const, output_url: url });

describe('generate and wait', () => {
  it('completes: submit, then poll every 3 s for an image, reporting each poll', async () => {
    const { client, clock, statusRequests, transport } = server('image', [
      { status: 'processing' },
      { status: 'processing' },
      done(),
    ]);
    const progress: WaitProgress[] = [];
    const result = await client.generate(
      'flux',
      'text-to-image',
      { prompt: 'a cat' },
      { onProgress: (p) => progress.push(p) },
    );
    expect(result).toMatchObject({ status: 'completed', output_url: 'https://e.com/out.png' });
    expect(transport.requests[0]).toMatchObject({ method: 'POST', url: `${BASE}/flux/text-to-image` });
    expect(statusRequests().map((r) => r.url)).toEqual(Array(3).fill(`${BASE}/status/gen_1`));
    expect(clock.sleeps).toEqual([3000, 3000, 3000]);
    expect(progress.map((p) => [p.polls, p.generation.status, p.elapsedMs])).toEqual([
      [1, 'processing', 3000],
      [2, 'processing', 6000],
      [3, 'completed', 9000],
    ]);
  });

  it('polls a video every 5 s and audio every 3 s (spec 4.3)', async () => {
    const video = server('video', [{ status: 'processing' }, done('https://e.com/v.mp4')]);
    await video.client.generate('kling', 'text-to-video', { prompt: 'waves' });
    expect(video.clock.sleeps).toEqual([5000, 5000]);
    const audio = server('audio', [done('https://e.com/a.mp3')]);
    await audio.client.generate('tts', 'text-to-speech', { prompt: 'hi' });
    expect(audio.clock.sleeps).toEqual([3000]);
  });

  it('pollIntervalMs overrides the spec interval', async () => {
    const { client, clock } = server('video', [{ status: 'processing' }, done()]);
    await client.generate('kling', 'text-to-video', { prompt: 'waves' }, { pollIntervalMs: 1000 });
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  it('fails: a failed generation becomes GenerationFailedError carrying it', async () => {
    const { client } = server('image', [
      { status: 'processing' },
      { status: 'failed', error_message: 'engine crashed' },
    ]);
    const error = (await client
      .generate('flux', 'text-to-image', { prompt: 'a' })
      .catch((e: unknown) => e)) as GenerationFailedError;
    expect(error).toBeInstanceOf(GenerationFailedError);
    expect(error.generation).toMatchObject({
      id: 'gen_1',
      status: 'failed',
      error_message: 'engine crashed',
    });
    expect(error).toMatchObject({ code: 'GENERATION_FAILED', status: 0, requestId: 'poll-2' });
    expect(error.message).toBe('generation gen_1 failed: engine crashed');
  });

  it('times out: WaitTimeoutError carrying the last generation, after a last poll at the deadline', async () => {
    const { client, clock, statusRequests } = server('image', [{ status: 'processing' }]);
    const error = (await client
      .generate('flux', 'text-to-image', { prompt: 'a' }, { timeoutMs: 10_000 })
      .catch((e: unknown) => e)) as WaitTimeoutError;
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error.generation).toMatchObject({ id: 'gen_1', status: 'processing' });
    expect(error).toMatchObject({ code: 'WAIT_TIMEOUT', polls: 4, elapsedMs: 10_000 });
    expect(clock.sleeps).toEqual([3000, 3000, 3000, 1000]);
    expect(statusRequests()).toHaveLength(4);
    expect(error.message).toMatch(/still processing after waiting 10000 ms/);
  });

  it('default timeout is 10 minutes for video and 2 minutes for images and audio', async () => {
    expect(DEFAULT_WAIT_TIMEOUT_MS).toEqual({ video: 600_000, image: 120_000, audio: 120_000 });
    const video = server('video', [{ status: 'processing' }]);
    const videoError = (await video.client
      .generate('k', 'text-to-video', { prompt: 'a' })
      .catch((e: unknown) => e)) as WaitTimeoutError;
    expect(videoError.elapsedMs).toBe(600_000);
    expect(videoError.polls).toBe(120);
    const image = server('image', [{ status: 'queued' }]);
    const imageError = (await image.client
      .generate('f', 'text-to-image', { prompt: 'a' })
      .catch((e: unknown) => e)) as WaitTimeoutError;
    expect(imageError.elapsedMs).toBe(120_000);
    expect(imageError.generation.status).toBe('queued');
  });

  it('aborts: an abort between polls rejects with the signal reason and stops polling', async () => {
    const { client, statusRequests } = server('image', [{ status: 'processing' }]);
    const controller = new AbortController();
    const reason = new Error('stop waiting');
    const promise = client.generate(
      'flux',
      'text-to-image',
      { prompt: 'a' },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.polls === 2) controller.abort(reason);
        },
      },
    );
    await expect(promise).rejects.toBe(reason);
    expect(statusRequests()).toHaveLength(2);
  });

  it('aborts: an already aborted signal sends nothing', async () => {
    const { client, transport } = server('image', [done()]);
    const controller = new AbortController();
    controller.abort();
    await expect(
      client.generate('flux', 'text-to-image', { prompt: 'a' }, { signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(transport.requests).toHaveLength(0);
  });

  it('aborts: an abort during an in-flight poll rejects with the reason', async () => {
    const controller = new AbortController();
    const transport = mockTransport((req) => {
      if (req.method === 'POST') return ok(generation(), 202);
      return new Promise((_resolve, reject) => {
        req.signal!.addEventListener('abort', () => reject(new Error('transport saw abort')), { once: true });
        controller.abort(new Error('user abort'));
      });
    });
    const client = new MediaGenClient({ transport, clock: fakeClock(), baseUrl: BASE });
    await expect(
      client.generate('m', 'text-to-image', { prompt: 'a' }, { signal: controller.signal }),
    ).rejects.toThrow('user abort');
  });

  it('an error while polling (404) propagates as its typed error', async () => {
    const { client } = server('image', ['error404']);
    await expect(client.generate('flux', 'text-to-image', { prompt: 'a' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('waitForGeneration by id polls at once', async () => {
    const { client, clock, transport } = server('image', [done()]);
    const result = await client.waitForGeneration('gen_1');
    expect(result.status).toBe('completed');
    expect(clock.sleeps).toEqual([]);
    expect(transport.requests).toHaveLength(1);
  });

  it('waitForGeneration of a terminal generation settles without a request', async () => {
    const { client, transport } = server('image', [done()]);
    const completed = generation({ status: 'completed', output_url: 'https://e.com/x.png' }) as Generation;
    await expect(client.waitForGeneration(completed)).resolves.toBe(completed);
    await expect(
      client.waitForGeneration({ ...completed, status: 'failed', output_url: null }),
    ).rejects.toBeInstanceOf(GenerationFailedError);
    expect(transport.requests).toHaveLength(0);
  });

  it('waitSeconds sends Prefer: wait=N and polls again at once when the server held the request', async () => {
    let polls = 0;
    const clock = fakeClock();
    const transport = mockTransport((req) => {
      if (req.method === 'POST') return ok(generation({ type: 'video' }), 202);
      polls += 1;
      clock.advance(20_000); // the server held the request for 20 s
      return ok(generation({ type: 'video', ...(polls === 3 ? done() : {}) }));
    });
    const client = new MediaGenClient({ transport, clock, baseUrl: BASE });
    await client.generate('k', 'text-to-video', { prompt: 'a' }, { waitSeconds: 20 });
    const gets = transport.requests.filter((r) => r.method === 'GET');
    expect(gets.map((r) => r.headers['prefer'])).toEqual(['wait=20', 'wait=20', 'wait=20']);
    expect(clock.sleeps).toEqual([]);
    expect(gets[0]!.timeoutMs).toBeGreaterThan(20_000);
  });

  it('waitSeconds against a server that ignores Prefer still paces polls at the spec interval', async () => {
    const { client, clock, transport } = server('image', [
      { status: 'processing' },
      { status: 'processing' },
      done(),
    ]);
    await client.generate('f', 'text-to-image', { prompt: 'a' }, { waitSeconds: 30 });
    expect(clock.sleeps).toEqual([3000, 3000]);
    expect(transport.requests.filter((r) => r.method === 'GET').map((r) => r.headers['prefer'])).toEqual([
      'wait=30',
      'wait=30',
      'wait=30',
    ]);
  });

  it('waitSeconds never asks to wait past the deadline, nor above 60', async () => {
    const a = server('image', [{ status: 'processing' }]);
    await a.client
      .generate('f', 'text-to-image', { prompt: 'a' }, { waitSeconds: 30, timeoutMs: 5000 })
      .catch(() => undefined);
    expect(a.transport.requests.filter((r) => r.method === 'GET')[0]!.headers['prefer']).toBe('wait=5');
    const b = server('image', [done()]);
    await b.client.getGeneration('gen_1', { waitSeconds: 600 });
    expect(b.transport.requests[0]!.headers['prefer']).toBe('wait=60');
  });

  it('faceSwapAndWait swaps then waits', async () => {
    const { client, transport } = server('video', [done('https://e.com/swap.mp4')]);
    const result = await client.faceSwapAndWait('https://e.com/face.png', 'https://e.com/clip.mp4', {
      idempotencyKey: 'k1',
    });
    expect(result.output_url).toBe('https://e.com/swap.mp4');
    expect(transport.requests[0]).toMatchObject({ method: 'POST', url: `${BASE}/face-swap` });
    expect(JSON.parse(transport.requests[0]!.body!)).toEqual({
      source_face_url: 'https://e.com/face.png',
      target_media: 'https://e.com/clip.mp4',
    });
    expect(transport.requests[0]!.headers['idempotency-key']).toBe('k1');
  });
});
