/**
 * GET /status/{id}: own generations only, 404s, failed generations (200, output_url null, refunded
 * once), the Prefer: wait extension, and Idempotency-Key on submit.
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileServer, type FileServer, type TestServer } from '../../dist/testing/index.js';
import { accountView, call, clientFor, expectError, FIXTURES, startServer, waitDone } from '../helpers.js';

let srv: TestServer;
let files: FileServer;
const SECRET = 'status-test-signing-secret-0123456789abcdef';
beforeAll(async () => {
  [srv, files] = await Promise.all([
    startServer({ env: { MEDIAGEN_SIGNING_SECRET: SECRET } }),
    startFileServer(join(FIXTURES, 'media')),
  ]);
});
afterAll(async () => {
  await files?.close();
  await srv?.stop();
});

const submitImage = (
  key = srv.apiKey,
  body: unknown = { prompt: 'a lighthouse' },
  headers: Record<string, string> = {},
) => call(srv, 'POST', '/scene-painter/text-to-image', { key, body, headers });

describe('GET /status/{id}', () => {
  it('404 for an unknown id, a malformed id, and a missing id; 401 without a key', async () => {
    expectError(
      await call(srv, 'GET', '/status/00000000-0000-4000-8000-000000000000', { key: srv.apiKey }),
      404,
      'NOT_FOUND',
    );
    expectError(await call(srv, 'GET', '/status/not-an-id', { key: srv.apiKey }), 404, 'NOT_FOUND');
    expectError(await call(srv, 'GET', '/status/', { key: srv.apiKey }), 404, 'NOT_FOUND');
    expectError(await call(srv, 'GET', '/status/00000000-0000-4000-8000-000000000000'), 401, 'UNAUTHORIZED');
  });

  it("two accounts are isolated: another account's generation is 404, balances apart", async () => {
    const a = await srv.createAccount(1);
    const b = await srv.createAccount(1);
    const gen = (await submitImage(a.apiKey)).body.data;
    expect((await call(srv, 'GET', `/status/${gen.id}`, { key: a.apiKey })).status).toBe(200);
    expectError(await call(srv, 'GET', `/status/${gen.id}`, { key: b.apiKey }), 404, 'NOT_FOUND');
    expect((await accountView(srv, b.accountId)).balance_usd).toBe(1);
    expect((await accountView(srv, a.accountId)).balance_usd).toBeCloseTo(0.99, 6);
  });

  it('a generation whose input cannot be fetched fails: 200, output_url null, refunded exactly once', async () => {
    const a = await srv.createAccount(1);
    const res = await call(srv, 'POST', '/scene-painter/image-to-image', {
      key: a.apiKey,
      body: { prompt: 'x', image: files.url('does-not-exist.png') },
    });
    expect(res.status).toBe(202);
    const done = await waitDone(srv, res.body.data.id, a.apiKey);
    expect(done.status).toBe('failed');
    expect(done.output_url).toBeNull();
    expect(done.error_message).toMatch(/404/);
    const view = await accountView(srv, a.accountId);
    expect(view.balance_usd).toBe(1);
    expect(view.ledger.filter((l) => l.kind === 'refund')).toHaveLength(1);
    expect(view.ledger.filter((l) => l.kind === 'charge')).toHaveLength(1);
  });

  it('Prefer: wait=N holds until completed and says Preference-Applied; without it answers at once', async () => {
    const gen = (await submitImage()).body.data;
    const quick = await call(srv, 'GET', `/status/${gen.id}`, { key: srv.apiKey });
    expect(quick.headers.get('preference-applied')).toBeNull();
    const waited = await call(srv, 'GET', `/status/${gen.id}`, {
      key: srv.apiKey,
      headers: { prefer: 'wait=60' },
    });
    expect(waited.status).toBe(200);
    expect(waited.headers.get('preference-applied')).toBe('wait=60');
    expect(waited.body.data.status).toBe('completed');
    const capped = await call(srv, 'GET', `/status/${gen.id}`, {
      key: srv.apiKey,
      headers: { prefer: 'wait=600' },
    });
    expect(capped.headers.get('preference-applied')).toBe('wait=60');
  });

  it('Prefer: wait=1 on a generation still processing returns processing after about a second', async () => {
    const gen = (
      await call(srv, 'POST', '/scene-animator/text-to-video', {
        key: srv.apiKey,
        body: { prompt: 'slow', duration: '15', resolution: '1080p' },
      })
    ).body.data;
    const res = await call(srv, 'GET', `/status/${gen.id}`, {
      key: srv.apiKey,
      headers: { prefer: 'wait=1' },
    });
    expect(res.status).toBe(200);
    expect(['processing', 'completed', 'failed']).toContain(res.body.data.status);
  });
});

describe('signed output URLs', () => {
  it('correct Content-Type and filename; tampered or expired URLs are refused; ranges work', async () => {
    const done = await waitDone(srv, (await submitImage()).body.data.id);
    const url = new URL(done.output_url);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(ok.headers.get('content-disposition')).toBe(`inline; filename="${done.id}.png"`);
    const size = (await ok.arrayBuffer()).byteLength;
    const part = await fetch(url, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(10);
    expect(part.headers.get('content-range')).toBe(`bytes 0-9/${size}`);

    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 1));
    expectError(await call({ baseUrl: '' }, 'GET', tampered.href), 403, 'FORBIDDEN');
    const otherFile = new URL(url.href.replace(`${done.id}.png`, `${done.id}.jpeg`));
    expectError(await call({ baseUrl: '' }, 'GET', otherFile.href), 403, 'FORBIDDEN');

    // Expired: a correctly signed URL whose expiry has passed.
    const key = decodeURIComponent(url.pathname.replace(/^\/files\//, ''));
    const past = Math.floor(Date.now() / 1000) - 10;
    const sig = createHmac('sha256', SECRET).update(`${key}\n${past}`).digest('hex');
    const expired = new URL(url);
    expired.searchParams.set('expires', String(past));
    expired.searchParams.set('signature', sig);
    expect(expectError(await call({ baseUrl: '' }, 'GET', expired.href), 403, 'FORBIDDEN')).toMatch(
      /expired/,
    );
    // The URL expires 7 days after the generation.
    expect(Number(url.searchParams.get('expires')) * 1000 - Date.parse(done.created_at)).toBeGreaterThan(
      7 * 86400_000 - 1000,
    );
    expect(Date.parse(done.expires_at)).toBe(Number(url.searchParams.get('expires')) * 1000);
  });
});

describe('Idempotency-Key', () => {
  it('same key and body: same generation, charged once (also when sent concurrently)', async () => {
    const a = await srv.createAccount(1);
    const headers = { 'idempotency-key': 'order-42' };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => submitImage(a.apiKey, { prompt: 'same' }, headers)),
    );
    for (const r of results) expect(r.status).toBe(202);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);
    const view = await accountView(srv, a.accountId);
    expect(view.ledger.filter((l) => l.kind === 'charge')).toHaveLength(1);
    expect(view.balance_usd).toBeCloseTo(0.99, 6);
  });

  it('same key with a different body is refused with 400; other accounts may use the same key', async () => {
    const a = await srv.createAccount(1);
    const headers = { 'idempotency-key': 'k-1' };
    expect((await submitImage(a.apiKey, { prompt: 'one' }, headers)).status).toBe(202);
    expect(
      expectError(await submitImage(a.apiKey, { prompt: 'two' }, headers), 400, 'VALIDATION_ERROR'),
    ).toMatch(/Idempotency-Key/);
    const b = await srv.createAccount(1);
    expect((await submitImage(b.apiKey, { prompt: 'two' }, headers)).status).toBe(202);
  });

  it('the core client sends it', async () => {
    const client = clientFor(srv);
    const first = await client.submit(
      'scene-painter',
      'text-to-image',
      { prompt: 'client' },
      { idempotencyKey: 'client-1' },
    );
    const again = await client.submit(
      'scene-painter',
      'text-to-image',
      { prompt: 'client' },
      { idempotencyKey: 'client-1' },
    );
    expect(again.id).toBe(first.id);
  });
});
