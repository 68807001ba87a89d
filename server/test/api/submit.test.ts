/**
 * POST /{model}/{task}: every task end to end (charge, 202 processing, job, completed with a real
 * file of the right type), and every error code the spec lists for submit, limits inside/outside.
 */
import { join } from 'node:path';
import { Generation, outputTypeForTask, TASK_NAMES, type TaskName } from '@mediagen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileServer, type FileServer, type TestServer } from '../../dist/testing/index.js';
import {
  accountView,
  admin,
  call,
  clientFor,
  expectError,
  FIXTURES,
  startServer,
  waitDone,
} from '../helpers.js';

let srv: TestServer;
let files: FileServer;
beforeAll(async () => {
  [srv, files] = await Promise.all([startServer(), startFileServer(join(FIXTURES, 'media'))]);
});
afterAll(async () => {
  await files?.close();
  await srv?.stop();
});

function requestFor(task: TaskName): { model: string; body: Record<string, unknown> } {
  const image = files.url('scene.jpg');
  const video = files.url('clip.mp4');
  switch (task) {
    case 'text-to-image':
      return {
        model: 'scene-painter',
        body: { prompt: 'a red sun over green hills', count: 2, output_format: 'webp' },
      };
    case 'image-to-image':
      return { model: 'scene-painter', body: { prompt: 'make it warmer', image } };
    case 'text-to-video':
      return {
        model: 'scene-animator',
        body: { prompt: 'waves at dusk', duration: '4', resolution: '480p' },
      };
    case 'image-to-video':
      return { model: 'scene-animator', body: { image, duration: '4', resolution: '480p' } };
    case 'reference-to-video':
      return {
        model: 'scene-animator',
        body: { prompt: 'a tour of @Image1', reference_images: [image], duration: '4', resolution: '480p' },
      };
    case 'video-to-video':
      return {
        model: 'scene-animator',
        body: { prompt: 'black and white', image: video, resolution: '480p' },
      };
    case 'video-extend':
      return { model: 'scene-animator', body: { image: video, duration: '2' } };
    case 'text-to-speech':
      return { model: 'formant-voice', body: { prompt: 'Hello from the test suite.' } };
    case 'text-to-music':
      return { model: 'procedural-music', body: { prompt: 'calm piano', duration: '30' } };
  }
}

const EXPECTED_MIME = { image: /^image\//, video: /^video\//, audio: /^audio\// };

describe('submit: every task end to end', () => {
  it.each(TASK_NAMES)(
    '%s: 202 processing, charged, then completed with a file of the task type',
    async (task) => {
      const { model, body } = requestFor(task);
      const before = await accountView(srv, srv.accountId);
      const res = await call(srv, 'POST', `/${model}/${task}`, { key: srv.apiKey, body });
      expect(res.status, res.text).toBe(202);
      const gen = Generation.parse(res.body.data);
      expect(gen.status).toBe('processing');
      expect(gen.output_url).toBeNull();
      expect(gen.type).toBe(outputTypeForTask(task));
      const charged = (await accountView(srv, srv.accountId)).ledger.find(
        (l) => l.generation_id === gen.id && l.kind === 'charge',
      );
      expect(charged!.amount_usd).toBeLessThan(0);
      const done = await waitDone(srv, gen.id);
      expect(done.status, done.error_message).toBe('completed');
      const out = await fetch(done.output_url);
      expect(out.status).toBe(200);
      expect(out.headers.get('content-type')).toMatch(EXPECTED_MIME[gen.type]);
      expect(out.headers.get('content-disposition')).toMatch(/filename="[^"]+\.\w+"/);
      expect((await out.arrayBuffer()).byteLength).toBeGreaterThan(100);
      const after = await accountView(srv, srv.accountId);
      expect(after.balance_usd).toBeCloseTo(before.balance_usd + charged!.amount_usd, 6);
      if (task === 'text-to-image') {
        expect(done.output_urls).toHaveLength(2);
        expect(out.headers.get('content-type')).toBe('image/webp');
      }
    },
    180_000,
  );

  it('the core client submits and waits with Prefer: wait', async () => {
    const client = clientFor(srv);
    const gen = await client.generate(
      'scene-painter',
      'text-to-image',
      { prompt: 'a blue square' },
      {
        waitSeconds: 20,
        timeoutMs: 120_000,
      },
    );
    expect(gen.status).toBe('completed');
    const file = await client.download(gen.output_url!);
    expect(file.contentType).toBe('image/png');
    expect(file.fileName).toMatch(/\.png$/);
  });

  it('charges the catalog price: per image times count; video by duration and resolution', async () => {
    const a = await srv.createAccount(10);
    const sub = async (model: string, task: string, body: unknown) => {
      const res = await call(srv, 'POST', `/${model}/${task}`, { key: a.apiKey, body });
      expect(res.status, res.text).toBe(202);
      const view = await accountView(srv, a.accountId);
      return -view.ledger.find((l) => l.generation_id === res.body.data.id)!.amount_usd;
    };
    expect(await sub('scene-painter', 'text-to-image', { prompt: 'x', count: 3 })).toBeCloseTo(0.03, 6);
    expect(
      await sub('scene-animator', 'text-to-video', { prompt: 'x', duration: '10', resolution: '1080p' }),
    ).toBeCloseTo(0.4, 6);
    expect(await sub('scene-animator', 'text-to-video', { prompt: 'x' })).toBeCloseTo(0.1, 6); // 5 s at 720p
  });
});

describe('submit: errors and limits', () => {
  const submit = (model: string, task: string, body: unknown, key: string | null = srv.apiKey) =>
    call(srv, 'POST', `/${model}/${task}`, { key, body });

  it('401 without or with an unknown key', async () => {
    expectError(await submit('scene-painter', 'text-to-image', { prompt: 'x' }, null), 401, 'UNAUTHORIZED');
    expectError(
      await submit('scene-painter', 'text-to-image', { prompt: 'x' }, 'mg_nope'),
      401,
      'UNAUTHORIZED',
    );
  });

  it('403 for a disabled key and for an expired key', async () => {
    const a = await srv.createAccount(5);
    const expired = await admin(srv, 'POST', `/accounts/${a.accountId}/keys`, {
      expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    expect(expired.status).toBe(201);
    expect(
      expectError(
        await submit('scene-painter', 'text-to-image', { prompt: 'x' }, expired.body.data.api_key),
        403,
        'FORBIDDEN',
      ),
    ).toMatch(/expired/);
    const k = await admin(srv, 'POST', `/accounts/${a.accountId}/keys`, {});
    expect(
      (await submit('scene-painter', 'text-to-image', { prompt: 'x' }, k.body.data.api_key)).status,
    ).toBe(202);
    expect((await admin(srv, 'POST', `/keys/${k.body.data.key_id}/disable`)).status).toBe(200);
    expect(
      expectError(
        await submit('scene-painter', 'text-to-image', { prompt: 'x' }, k.body.data.api_key),
        403,
        'FORBIDDEN',
      ),
    ).toMatch(/disabled/);
  });

  it('404 for an unknown model and for a task the model does not support', async () => {
    expect(
      expectError(await submit('no-such-model', 'text-to-image', { prompt: 'x' }), 404, 'NOT_FOUND'),
    ).toMatch(/no-such-model/);
    expect(
      expectError(await submit('scene-painter', 'text-to-video', { prompt: 'x' }), 404, 'NOT_FOUND'),
    ).toMatch(/text-to-video/);
    expectError(await submit('scene-painter', 'made-up-task', { prompt: 'x' }), 404, 'NOT_FOUND');
    expectError(await submit('moderation', 'moderation', { text: 'x' }), 404, 'NOT_FOUND');
  });

  it('402 when the balance is short, and nothing is written', async () => {
    const poor = await srv.createAccount(0.015);
    expectError(
      await submit('scene-painter', 'text-to-image', { prompt: 'x', count: 2 }, poor.apiKey),
      402,
      'PAYMENT_REQUIRED',
    );
    const view = await accountView(srv, poor.accountId);
    expect(view.balance_usd).toBeCloseTo(0.015, 6);
    expect(view.ledger.filter((l) => l.kind === 'charge')).toHaveLength(0);
    // Exactly the balance is enough.
    expect(
      (await submit('scene-painter', 'text-to-image', { prompt: 'x', count: 1 }, poor.apiKey)).status,
    ).toBe(202);
  });

  it('concurrent submits (grouped into one transaction) are charged one by one: exactly what the balance pays', async () => {
    const a = await srv.createAccount(0.07);
    const other = await srv.createAccount(1);
    const bad = await admin(srv, 'POST', `/accounts/${other.accountId}/keys`, {});
    await admin(srv, 'POST', `/keys/${bad.body.data.key_id}/disable`);
    const results = await Promise.all([
      ...Array.from({ length: 30 }, (_, i) =>
        submit('scene-painter', 'text-to-image', { prompt: `burst ${i}` }, a.apiKey),
      ),
      submit('scene-painter', 'text-to-image', { prompt: 'disabled' }, bad.body.data.api_key),
      submit('scene-painter', 'text-to-image', { prompt: 'other' }, other.apiKey),
    ]);
    const mine = results.slice(0, 30);
    expect(mine.filter((r) => r.status === 202)).toHaveLength(7);
    for (const r of mine.filter((x) => x.status !== 202)) expectError(r, 402, 'PAYMENT_REQUIRED');
    expectError(results[30]!, 403, 'FORBIDDEN');
    expect(results[31]!.status).toBe(202);
    const view = await accountView(srv, a.accountId);
    expect(view.balance_usd).toBe(0);
    expect(view.ledger.filter((l) => l.kind === 'charge')).toHaveLength(7);
    expect(new Set(mine.filter((r) => r.status === 202).map((r) => r.body.data.id)).size).toBe(7);
    // What each accepted submit answered is what its stored row holds.
    for (const r of mine.filter((x) => x.status === 202)) {
      const stored = await call(srv, 'GET', `/status/${r.body.data.id}`, { key: a.apiKey });
      expect(stored.status).toBe(200);
      for (const field of ['id', 'model', 'type', 'created_at'] as const) {
        expect(stored.body.data[field], field).toBe(r.body.data[field]);
      }
    }
  });

  it('NUL or an unpaired surrogate (text PostgreSQL cannot store) is a 400 naming the field, and the other submits of its group still go through', async () => {
    const a = await srv.createAccount(1);
    const image = files.url('scene.jpg');
    const bad: Array<[string, string, Record<string, unknown>, RegExp]> = [
      ['scene-painter', 'text-to-image', { prompt: 'a\u0000b' }, /^prompt: must not contain NUL/],
      ['scene-painter', 'text-to-image', { prompt: 'lone \ud800' }, /^prompt: .*unpaired UTF-16 surrogates/],
      ['scene-painter', 'image-to-image', { prompt: 'x', image: `${image}?\u0000` }, /^image: /],
      ['formant-voice', 'text-to-speech', { prompt: 'hi', voice: 'v\udc00' }, /^voice: /],
      ['procedural-music', 'text-to-music', { prompt: '\u0000' }, /^prompt: /],
    ];
    const results = await Promise.all([
      ...bad.map(([model, task, body]) => submit(model, task, body, a.apiKey)),
      ...Array.from({ length: 10 }, (_, i) =>
        submit('scene-painter', 'text-to-image', { prompt: `fine ${i} \ud83d\ude00` }, a.apiKey),
      ),
    ]);
    bad.forEach(([, , , pattern], i) => {
      expect(expectError(results[i]!, 400, 'VALIDATION_ERROR')).toMatch(pattern);
    });
    for (const r of results.slice(bad.length)) expect(r.status).toBe(202);
    const view = await accountView(srv, a.accountId);
    expect(view.ledger.filter((l) => l.kind === 'charge')).toHaveLength(10);
    expect(view.balance_usd).toBeCloseTo(0.9, 6);
  });

  it('400 naming the field: missing prompt, unknown field, wrong enum, invalid media URL', async () => {
    expect(expectError(await submit('scene-painter', 'text-to-image', {}), 400, 'VALIDATION_ERROR')).toMatch(
      /prompt/,
    );
    expect(
      expectError(
        await submit('scene-painter', 'text-to-image', { prompt: 'x', colour: 'red' }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/colour/);
    expect(
      expectError(
        await submit('scene-painter', 'text-to-image', { prompt: 'x', resolution: '8k' }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/resolution.*1k/);
    expect(
      expectError(
        await submit('scene-painter', 'image-to-image', { prompt: 'x', image: 'data:image/png;base64,AAAA' }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/image/);
    expect(
      expectError(
        await submit('scene-painter', 'image-to-image', { prompt: 'x', image: 'ftp://example.com/a.png' }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/image/);
    expect(
      expectError(
        await submit('scene-animator', 'text-to-video', { prompt: 'x', duration: '7' }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/duration/);
    expect(
      expectError(
        await submit('scene-animator', 'image-to-video', { image: files.url('scene.jpg'), duration: '30' }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/duration.*"4"/);
    expect(
      expectError(
        await submit('formant-voice', 'text-to-speech', { prompt: 'hi', voice: 'no-such-voice' }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/voice/);
  });

  it('count: 1 and 4 accepted, 0 and 5 refused', async () => {
    for (const count of [1, 4])
      expect((await submit('scene-painter', 'text-to-image', { prompt: 'x', count })).status).toBe(202);
    for (const count of [0, 5]) {
      expect(
        expectError(
          await submit('scene-painter', 'text-to-image', { prompt: 'x', count }),
          400,
          'VALIDATION_ERROR',
        ),
      ).toMatch(/count/);
    }
  });

  it('reference-to-video: 9 images / 3 videos / 3 audios accepted, 10 / 4 / 4 refused, none refused', async () => {
    const img = files.url('scene.jpg');
    const vid = files.url('clip.mp4');
    const aud = files.url('tone.mp3');
    const ok = await submit('scene-animator', 'reference-to-video', {
      prompt: 'x',
      reference_images: Array(9).fill(img),
      reference_videos: Array(3).fill(vid),
      reference_audios: Array(3).fill(aud),
    });
    expect(ok.status, ok.text).toBe(202);
    for (const [field, url, n] of [
      ['reference_images', img, 10],
      ['reference_videos', vid, 4],
      ['reference_audios', aud, 4],
    ] as const) {
      const msg = expectError(
        await submit('scene-animator', 'reference-to-video', { prompt: 'x', [field]: Array(n).fill(url) }),
        400,
        'VALIDATION_ERROR',
      );
      expect(msg).toContain(field);
    }
    expectError(
      await submit('scene-animator', 'reference-to-video', { prompt: 'x' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('429 with Retry-After when the key exceeds the rate limit (shared in PostgreSQL)', async () => {
    const limited = await startServerWithLimit();
    try {
      const results = await Promise.all(
        Array.from({ length: 12 }, () => call(limited, 'GET', '/models', { key: limited.apiKey })),
      );
      const refused = results.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expectError(refused[0]!, 429, 'RATE_LIMITED');
      expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another key has its own bucket.
      const other = await limited.createAccount(1);
      expect((await call(limited, 'GET', '/models', { key: other.apiKey })).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

async function startServerWithLimit() {
  const { startServer: start } = await import('../helpers.js');
  return start({ env: { MEDIAGEN_RATE_LIMIT: '1/m,burst=5' } });
}
