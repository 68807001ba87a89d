/**
 * Idempotency-Key on POST /face-swap (extension, docs/api-extensions.md): a retried request with the
 * same key and body answers the same generation and is charged once; the same key with another body
 * is refused with a 400 and charges nothing.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileServer, type FileServer, type TestServer } from '../../dist/testing/index.js';
import { accountView, call, expectError, FIXTURES, startServer, waitDone } from '../helpers.js';

let srv: TestServer;
let files: FileServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mediagen-swap-idem-'));
  for (const f of ['portrait-hopper.jpg', 'portrait-astronaut.jpg']) {
    await copyFile(join(FIXTURES, 'faces', f), join(dir, f));
  }
  [srv, files] = await Promise.all([startServer(), startFileServer(dir)]);
});
afterAll(async () => {
  await files?.close();
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

const swap = (body: unknown, key: string, idempotencyKey: string) =>
  call(srv, 'POST', '/face-swap', { key, body, headers: { 'idempotency-key': idempotencyKey } });

describe('POST /face-swap with Idempotency-Key', () => {
  it('same key and body: the same generation, charged once; same key, other body: 400, nothing charged', async () => {
    const a = await srv.createAccount(1);
    const body = {
      source_face_url: files.url('portrait-hopper.jpg'),
      target_media: files.url('portrait-astronaut.jpg'),
    };
    const first = await swap(body, a.apiKey, 'swap-retry-1');
    expect(first.status, first.text).toBe(202);
    const again = await swap(body, a.apiKey, 'swap-retry-1');
    expect(again.status, again.text).toBe(202);
    expect(again.body.data.id).toBe(first.body.data.id);

    const other = { ...body, target_media: files.url('portrait-hopper.jpg') };
    expect(expectError(await swap(other, a.apiKey, 'swap-retry-1'), 400, 'VALIDATION_ERROR')).toMatch(
      /Idempotency-Key/,
    );

    // A new key is a new request: a second generation, charged.
    const fresh = await swap(body, a.apiKey, 'swap-retry-2');
    expect(fresh.status, fresh.text).toBe(202);
    expect(fresh.body.data.id).not.toBe(first.body.data.id);

    for (const id of [first.body.data.id, fresh.body.data.id]) {
      const done = await waitDone(srv, id, a.apiKey);
      expect(done.status, done.error_message).toBe('completed');
    }
    // The retry after completion still answers the same generation, not a new one.
    const late = await swap(body, a.apiKey, 'swap-retry-1');
    expect(late.status, late.text).toBe(202);
    expect(late.body.data.id).toBe(first.body.data.id);

    const view = await accountView(srv, a.accountId);
    const charges = view.ledger.filter((l) => l.kind === 'charge');
    expect(charges.map((c) => c.generation_id).sort()).toEqual(
      [first.body.data.id, fresh.body.data.id].sort(),
    );
    expect(view.ledger.filter((l) => l.kind === 'refund')).toHaveLength(0);
    expect(view.balance_usd).toBeCloseTo(1 - 2 * 0.01, 6);
  }, 180_000);
});
