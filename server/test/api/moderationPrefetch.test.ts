/**
 * POST /moderation with image_url starts the download while the key is being checked, but only for a
 * key this process accepted lately (api/prefetchImage.ts, api/recentKeys.ts): a caller without such a
 * key makes the server fetch nothing, a refused key gets its refusal and nothing else, and errors read
 * exactly as without the prefetch.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../../dist/testing/index.js';
import { accountView, call, expectError, FIXTURES, startServer } from '../helpers.js';

const PHOTO = readFileSync(join(FIXTURES, 'moderation', 'grace-hopper.jpg'));

/** An origin that counts what it was asked for. */
let origin: Server;
let originUrl: string;
let requested: string[] = [];

let srv: TestServer;
let pool: pg.Pool;

beforeAll(async () => {
  origin = createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(PHOTO);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  // The default rate limit is on: every accepted request updates its key's bucket row.
  // Debug logging: each prefetch says so in the log.
  srv = await startServer({ env: { MEDIAGEN_RATE_LIMIT: '1000/s,burst=1000', MEDIAGEN_LOG_LEVEL: 'debug' } });
  pool = new pg.Pool({ connectionString: srv.databaseUrl, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await srv?.stop();
  await new Promise((r) => origin?.close(r));
});
beforeEach(() => {
  requested = [];
});

const moderate = (key: string | null, body: unknown) => call(srv, 'POST', '/moderation', { key, body });
const keyHash = (key: string) => createHash('sha256').update(key).digest();
const photo = () => ({ image_url: `${originUrl}/photo.jpg` });

/** How many prefetches the server has logged so far. */
const prefetches = () =>
  srv.processes[0]!.output().split('image_url download started while the key is checked').length - 1;

/** Holds the key's rate-limit bucket row in an open transaction: its authentication waits for it. */
async function holdBucket(apiKey: string) {
  const { rows } = await pool.query<{ id: string }>('select id from api_keys where key_hash = $1', [
    keyHash(apiKey),
  ]);
  const holder = await pool.connect();
  await holder.query('begin');
  // Inserted when the key has no bucket yet (its insert then waits for ours), locked when it has.
  await holder.query(
    `insert into rate_limit_buckets (key_id, tokens, updated_at) values ($1, 1000, now())
     on conflict (key_id) do update set tokens = rate_limit_buckets.tokens`,
    [rows[0]!.id],
  );
  return {
    release: async () => {
      await holder.query('commit');
      holder.release();
    },
  };
}

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

describe('moderation: an image is downloaded while a recently accepted key is checked', () => {
  it('without a key, or with one this process never accepted, nothing is fetched before the key is', async () => {
    const before = prefetches();
    expectError(await moderate(null, photo()), 401, 'UNAUTHORIZED');
    expectError(await moderate('mg_not_a_key_this_server_knows', photo()), 401, 'UNAUTHORIZED');
    expect(prefetches()).toBe(before);

    // A working key, never used here: its authentication is held, and the origin hears nothing meanwhile.
    const a = await srv.createAccount(1);
    const bucket = await holdBucket(a.apiKey);
    const pending = moderate(a.apiKey, photo());
    await new Promise((r) => setTimeout(r, 500));
    expect(requested).toEqual([]);
    await bucket.release();
    expect((await pending).status).toBe(200);
    expect(requested).toEqual(['/photo.jpg']); // fetched once the key was accepted
    expect(prefetches()).toBe(before);
  });

  it('the download starts while the key is still being checked, and the call succeeds', async () => {
    const a = await srv.createAccount(1);
    expect((await moderate(a.apiKey, { text: 'a quiet afternoon' })).status).toBe(200); // accepted once
    expect(requested).toEqual([]);

    const before = prefetches();
    const bucket = await holdBucket(a.apiKey);
    let answered = false;
    const pending = moderate(a.apiKey, photo()).finally(() => (answered = true));
    expect(await waitFor(() => requested.length > 0, 10_000)).toBe(true);
    expect(requested).toEqual(['/photo.jpg']);
    expect(answered).toBe(false); // the key is not yet accepted, so nothing was answered
    await bucket.release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ media_type: 'image', policy: 'nsfw', nsfw: false });
    expect(requested).toEqual(['/photo.jpg']); // downloaded once
    expect(prefetches()).toBe(before + 1);
    expect((await accountView(srv, a.accountId)).moderation_calls).toBe(2);
  });

  it('a key disabled since it was accepted gets its 403 and nothing else, and is no longer prefetched for', async () => {
    const a = await srv.createAccount(1);
    expect((await moderate(a.apiKey, { text: 'hello' })).status).toBe(200);
    await pool.query('update api_keys set disabled_at = now() where key_hash = $1', [keyHash(a.apiKey)]);

    // Still a hint: the body is read beside the key's query, but its error is answered after it.
    const broken = await call(srv, 'POST', '/moderation', { key: a.apiKey, rawBody: '{"image_url": ' });
    expectError(broken, 403, 'FORBIDDEN');
    // Forgotten at that refusal: no download starts for it any more.
    const before = prefetches();
    expectError(await moderate(a.apiKey, photo()), 403, 'FORBIDDEN');
    expect(prefetches()).toBe(before);
    expect((await accountView(srv, a.accountId)).moderation_calls).toBe(1);
  });

  it('a key refused before its body has arrived starts no download when the body comes', async () => {
    const b = await srv.createAccount(1);
    expect((await moderate(b.apiKey, { text: 'hello' })).status).toBe(200);
    await pool.query('update api_keys set disabled_at = now() where key_hash = $1', [keyHash(b.apiKey)]);
    const before = prefetches();
    const url = new URL(`${srv.baseUrl}/moderation`);
    const req = request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.apiKey}`, 'content-type': 'application/json' },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
    });
    req.flushHeaders();
    const refused = await answer; // answered before the body was sent
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.code).toBe('FORBIDDEN');
    req.end(JSON.stringify(photo()));
    await new Promise((r) => setTimeout(r, 500));
    expect(requested).toEqual([]);
    expect(prefetches()).toBe(before);
  });

  it('errors read as without the prefetch: a broken body, an unknown field, a missing image', async () => {
    const a = await srv.createAccount(1);
    expect((await moderate(a.apiKey, { text: 'hello' })).status).toBe(200);

    const broken = await call(srv, 'POST', '/moderation', { key: a.apiKey, rawBody: '{"image_url": ' });
    expect(expectError(broken, 400, 'VALIDATION_ERROR')).toBe('request body is not valid JSON');
    expect(
      expectError(await moderate(a.apiKey, { ...photo(), colour: 'red' }), 400, 'VALIDATION_ERROR'),
    ).toMatch(/unknown field "colour"/);
    expect(
      expectError(await moderate(a.apiKey, { image_url: `${originUrl}/gone.jpg` }), 400, 'VALIDATION_ERROR'),
    ).toMatch(/image_url.*404/);
    expect((await accountView(srv, a.accountId)).moderation_calls).toBe(1);
  });
});
