/** POST /face-swap/detect (free) and POST /face-swap (charged, polled), with real face pictures. */
import { mkdtemp, rm, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Generation } from '@mediagen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpeg } from '../../dist/media/ffmpeg.js';
import { startFileServer, type FileServer, type TestServer } from '../../dist/testing/index.js';
import { accountView, call, clientFor, expectError, FIXTURES, startServer, waitDone } from '../helpers.js';

let srv: TestServer;
let files: FileServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mediagen-faces-'));
  for (const f of ['portrait-hopper.jpg', 'portrait-astronaut.jpg', 'no-face-cat.jpg']) {
    await copyFile(join(FIXTURES, 'faces', f), join(dir, f));
  }
  // A 2-second video target with a face.
  await ffmpeg([
    '-loop',
    '1',
    '-i',
    join(dir, 'portrait-astronaut.jpg'),
    '-t',
    '2',
    '-r',
    '8',
    '-vf',
    'scale=320:-2',
    '-pix_fmt',
    'yuv420p',
    join(dir, 'face.mp4'),
  ]);
  [srv, files] = await Promise.all([startServer(), startFileServer(dir)]);
});
afterAll(async () => {
  await files?.close();
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

const detect = (body: unknown, key: string | null = srv.apiKey) =>
  call(srv, 'POST', '/face-swap/detect', { key, body });
const swap = (body: unknown, key: string | null = srv.apiKey) =>
  call(srv, 'POST', '/face-swap', { key, body });

describe('POST /face-swap/detect', () => {
  it('400 when source_image is missing or not an http(s) URL or not an image; 401 without a key', async () => {
    expect(expectError(await detect({}), 400, 'VALIDATION_ERROR')).toMatch(/source_image/);
    expectError(await detect({ source_image: 'file:///etc/passwd' }), 400, 'VALIDATION_ERROR');
    expect(
      expectError(await detect({ source_image: files.url('nothing.jpg') }), 400, 'VALIDATION_ERROR'),
    ).toMatch(/404/);
    expectError(await detect({ source_image: files.url('portrait-hopper.jpg') }, null), 401, 'UNAUTHORIZED');
  });

  it('answers cropped faces served by this server, free of charge', async () => {
    const a = await srv.createAccount(1);
    const res = await detect({ source_image: files.url('portrait-hopper.jpg') }, a.apiKey);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.faces.length).toBeGreaterThanOrEqual(1);
    expect(res.body.data.message).toBeUndefined();
    const crop = await fetch(res.body.data.faces[0]);
    expect(crop.status).toBe(200);
    expect(crop.headers.get('content-type')).toBe('image/png');
    expect((await accountView(srv, a.accountId)).balance_usd).toBe(1);
  });

  it('no face: empty list and a message', async () => {
    const res = await detect({ source_image: files.url('no-face-cat.jpg') });
    expect(res.status).toBe(200);
    expect(res.body.data.faces).toEqual([]);
    expect(res.body.data.message).toMatch(/no face/i);
  });
});

describe('POST /face-swap', () => {
  it('400 for missing fields or an invalid media URL; 402 when the balance is short', async () => {
    expect(expectError(await swap({}), 400, 'VALIDATION_ERROR')).toMatch(/source_face_url/);
    expect(
      expectError(await swap({ source_face_url: files.url('portrait-hopper.jpg') }), 400, 'VALIDATION_ERROR'),
    ).toMatch(/target_media/);
    expectError(
      await swap({ source_face_url: 'data:x', target_media: files.url('portrait-astronaut.jpg') }),
      400,
      'VALIDATION_ERROR',
    );
    expect(
      expectError(
        await swap({
          source_face_url: files.url('portrait-hopper.jpg'),
          target_media: files.url('gone.jpg'),
        }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/target_media/);
    const poor = await srv.createAccount(0.005);
    expectError(
      await swap(
        {
          source_face_url: files.url('portrait-hopper.jpg'),
          target_media: files.url('portrait-astronaut.jpg'),
        },
        poor.apiKey,
      ),
      402,
      'PAYMENT_REQUIRED',
    );
    expect((await accountView(srv, poor.accountId)).ledger.filter((l) => l.kind === 'charge')).toHaveLength(
      0,
    );
  });

  it('image target: detect -> swap -> completed image, fixed price', async () => {
    const a = await srv.createAccount(1);
    const client = clientFor(srv, a.apiKey);
    const faces = await client.detectFaces(files.url('portrait-hopper.jpg'));
    const gen = await client.faceSwap(faces.faces[0]!, files.url('portrait-astronaut.jpg'));
    expect(gen.status).toBe('processing');
    expect(gen.type).toBe('image');
    const done = Generation.parse(await waitDone(srv, gen.id, a.apiKey));
    expect(done.status, done.error_message ?? '').toBe('completed');
    expect((await fetch(done.output_url!)).headers.get('content-type')).toMatch(/^image\//);
    expect((await accountView(srv, a.accountId)).balance_usd).toBeCloseTo(0.99, 6);
  }, 120_000);

  it('video target: type video, priced by duration', async () => {
    const a = await srv.createAccount(1);
    const faces = (await detect({ source_image: files.url('portrait-hopper.jpg') }, a.apiKey)).body.data
      .faces;
    const res = await swap({ source_face_url: faces[0], target_media: files.url('face.mp4') }, a.apiKey);
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.type).toBe('video');
    const view = await accountView(srv, a.accountId);
    expect(view.ledger.find((l) => l.kind === 'charge')!.amount_usd).toBeCloseTo(-0.01, 6); // 2 s x $0.005
    const done = await waitDone(srv, res.body.data.id, a.apiKey, 180_000);
    expect(done.status, done.error_message).toBe('completed');
    expect((await fetch(done.output_url)).headers.get('content-type')).toMatch(/^video\//);
  }, 240_000);

  it('a target with no face fails and is refunded', async () => {
    const a = await srv.createAccount(1);
    const faces = (await detect({ source_image: files.url('portrait-hopper.jpg') }, a.apiKey)).body.data
      .faces;
    const res = await swap(
      { source_face_url: faces[0], target_media: files.url('no-face-cat.jpg') },
      a.apiKey,
    );
    expect(res.status).toBe(202);
    const done = await waitDone(srv, res.body.data.id, a.apiKey);
    expect(done.status).toBe('failed');
    expect(done.output_url).toBeNull();
    expect((await accountView(srv, a.accountId)).balance_usd).toBe(1);
  }, 120_000);
});
