/**
 * End to end across parts, as a content pipeline would run: the core client (undici) talks HTTP to the
 * real server (embedded PostgreSQL, API + worker process, real engines). Each step checks what a user
 * would check, and the money is reconciled against the account's ledger at the end.
 */
import { GenerationFailedError, type Generation, type MediaGenClient } from '@mediagen/core';
import { createClient } from '@mediagen/core/undici';
import { startFileServer, startTestServer, type TestServer } from '@mediagen/server/testing';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'faces');

let srv: TestServer;
let files: Awaited<ReturnType<typeof startFileServer>>;
let client: MediaGenClient;

async function bytesOf(url: string): Promise<{ bytes: Buffer; contentType: string; fileName: string }> {
  const dl = await client.download(url);
  const chunks: Uint8Array[] = [];
  for await (const chunk of dl.body) chunks.push(chunk);
  return { bytes: Buffer.concat(chunks), contentType: dl.contentType, fileName: dl.fileName };
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function account(): Promise<{
  balance_usd: number;
  moderation_calls: number;
  ledger: Array<{ kind: string; amount_usd: number; generation_id: string | null }>;
}> {
  const res = await fetch(`${new URL(srv.baseUrl).origin}/admin/v1/accounts/${srv.accountId}`, {
    headers: { authorization: `Bearer ${srv.adminToken}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Awaited<ReturnType<typeof account>> }).data;
}

beforeAll(async () => {
  srv = await startTestServer();
  files = await startFileServer(fixtures);
  client = createClient({ apiKey: srv.apiKey, baseUrl: srv.baseUrl });
}, 180_000);

afterAll(async () => {
  await files?.close();
  await srv?.stop();
});

describe('a content pipeline over HTTP with the core client', () => {
  let image: Generation;
  let swapped: Generation;
  let openingBalance: number;

  it('lists the catalog, including the face-swap and moderation entries', async () => {
    openingBalance = (await account()).balance_usd;
    const models = await client.listModels();
    const types = new Set(models.map((m) => m.type));
    for (const t of ['image', 'video', 'audio', 'face-swap', 'moderation']) expect(types).toContain(t);
    const moderation = models.find((m) => m.type === 'moderation')!;
    expect(moderation.price_from_usd).toBe(0);
    expect(moderation.tasks).toEqual([moderation.slug]);
  });

  it('generates a 16:9 image and downloads a real PNG of the requested size', async () => {
    const model = (await client.listModels()).find((m) => m.tasks.includes('text-to-image'))!;
    image = await client.generate(
      model.slug,
      'text-to-image',
      { prompt: 'a lighthouse on a cliff at sunset', aspect_ratio: '16:9', output_format: 'png' },
      { waitSeconds: 30, timeoutMs: 120_000 },
    );
    expect(image.status).toBe('completed');
    expect(image.type).toBe('image');
    const { bytes, contentType, fileName } = await bytesOf(image.output_url!);
    expect(contentType).toBe('image/png');
    expect(fileName).toMatch(/\.png$/);
    expect(pngSize(bytes)).toEqual({ width: 1024, height: 576 });
  });

  it('moderates the generated image and a violent sentence in one pipeline', async () => {
    const clean = await client.moderate({ image_url: image.output_url! });
    expect(clean.media_type).toBe('image');
    expect(clean.nsfw).toBe(false);
    expect(clean.score).toBeLessThan(clean.threshold);

    const threat = await client.moderate({
      text: 'I will kill you and your whole family tonight.',
      policy: 'violence',
    });
    expect(threat.media_type).toBe('text');
    expect(threat.policy).toBe('violence');
    expect(threat.nsfw).toBe(true);

    const news = await client.moderate({
      text: 'The city council approved the new library budget on Tuesday.',
      policy: 'violence',
    });
    expect(news.nsfw).toBe(false);
  });

  it('detects faces in a portrait and swaps the face into another portrait', async () => {
    const detected = await client.detectFaces(files.url('portrait-hopper.jpg'));
    expect(detected.faces).toHaveLength(1);
    expect(detected.message).toBeUndefined();

    swapped = await client.faceSwapAndWait(detected.faces[0]!, files.url('portrait-astronaut.jpg'), {
      waitSeconds: 30,
      timeoutMs: 120_000,
    });
    expect(swapped.status).toBe('completed');
    expect(swapped.type).toBe('image');
    const { bytes, contentType } = await bytesOf(swapped.output_url!);
    expect(contentType).toMatch(/^image\//);
    expect(bytes.length).toBeGreaterThan(1000);
  });

  it('fails a swap into a picture with no face, and refunds it', async () => {
    const detected = await client.detectFaces(files.url('portrait-hopper.jpg'));
    const before = (await account()).balance_usd;
    const err = await client
      .faceSwapAndWait(detected.faces[0]!, files.url('no-face-coffee.jpg'), {
        waitSeconds: 30,
        timeoutMs: 120_000,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(GenerationFailedError);
    const failed = (err as GenerationFailedError).generation;
    expect(failed.status).toBe('failed');
    expect(failed.output_url).toBeNull();
    // Re-reading the failed generation answers 200 with output_url null (spec 4.3).
    expect((await client.getGeneration(failed.id)).status).toBe('failed');
    expect((await account()).balance_usd).toBeCloseTo(before, 6);
  });

  it('reconciles: balance equals the opening balance plus the ledger, one charge per generation, one refund', async () => {
    const acct = await account();
    const rows = acct.ledger;
    const sum = rows.reduce((s, r) => s + r.amount_usd, 0);
    const topUps = rows.filter((r) => r.kind === 'top_up').reduce((s, r) => s + r.amount_usd, 0);
    expect(acct.balance_usd).toBeCloseTo(sum, 6);
    expect(acct.balance_usd).toBeLessThan(openingBalance);
    expect(topUps).toBeCloseTo(100, 6);
    const charges = rows.filter((r) => r.kind === 'charge');
    const refunds = rows.filter((r) => r.kind === 'refund');
    expect(charges.map((r) => r.generation_id)).toEqual(expect.arrayContaining([image.id, swapped.id]));
    expect(new Set(charges.map((r) => r.generation_id)).size).toBe(charges.length);
    expect(refunds).toHaveLength(1);
    // Three moderation calls: inside the free ten, so no moderation batch was charged.
    expect(acct.moderation_calls).toBe(3);
    expect(rows.filter((r) => r.kind === 'moderation_batch')).toHaveLength(0);
  });
});
