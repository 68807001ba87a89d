/**
 * The hourly job `purge_expired_outputs` (jobs/tasks/purgeExpiredOutputs.ts) on a real server: files of
 * generations older than the URL validity (7 days) plus the grace (24 h by default) and expired face
 * crops are deleted, the generation rows are marked and still answer /status, younger outputs are
 * kept, a file already gone is no error, a second run changes nothing, and two runs at once (as from
 * two worker processes) never take the same generation.
 */
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Generation } from '@mediagen/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../dist/context.js';
import { purgeExpiredOutputs } from '../../dist/jobs/tasks/purgeExpiredOutputs.js';
import { LocalStorage } from '../../dist/storage/local.js';
import { startFileServer, type FileServer, type TestServer } from '../../dist/testing/index.js';
import { call, FIXTURES, startServer, waitDone } from '../helpers.js';

let srv: TestServer;
let files: FileServer;
let db: pg.Pool;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mediagen-purge-'));
  await copyFile(join(FIXTURES, 'faces', 'portrait-hopper.jpg'), join(dir, 'portrait-hopper.jpg'));
  [srv, files] = await Promise.all([startServer(), startFileServer(dir)]);
  db = new pg.Pool({ connectionString: srv.databaseUrl, max: 4 });
});
afterAll(async () => {
  await db?.end();
  await files?.close();
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

const exists = (key: string) =>
  stat(join(srv.storageDir, ...key.split('/'))).then(
    () => true,
    () => false,
  );

async function outputKeys(id: string): Promise<string[]> {
  const { rows } = await db.query<{ outputs: Array<{ key: string }> }>(
    `select outputs from generations where id = $1`,
    [id],
  );
  return rows[0]!.outputs.map((o) => o.key);
}

async function purgedAt(id: string): Promise<Date | null> {
  const { rows } = await db.query<{ outputs_purged_at: Date | null }>(
    `select outputs_purged_at from generations where id = $1`,
    [id],
  );
  return rows[0]!.outputs_purged_at;
}

/** Queues the job as the cron would and waits until a worker has run it to success. */
async function runPurge(): Promise<void> {
  await db.query(
    `select graphile_worker.add_job('purge_expired_outputs', job_key := 'purge_expired_outputs', max_attempts := 1)`,
  );
  const end = Date.now() + 60_000;
  for (;;) {
    const { rows } = await db.query<{ attempts: number; last_error: string | null }>(
      `select attempts, last_error from graphile_worker.jobs where task_identifier = 'purge_expired_outputs'`,
    );
    if (rows.length === 0) return; // graphile-worker deletes a job that succeeded
    if (rows[0]!.last_error) throw new Error(`purge job failed: ${rows[0]!.last_error}`);
    if (Date.now() > end) throw new Error('purge job did not run within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const submit = (prompt: string, count = 1) =>
  call(srv, 'POST', '/scene-painter/text-to-image', {
    key: srv.apiKey,
    body: { prompt, count, output_format: 'png' },
  });

describe('purge_expired_outputs', () => {
  it('is registered with graphile-worker cron', async () => {
    const { rows } = await db.query<{ identifier: string }>(
      `select identifier from graphile_worker._private_known_crontabs`,
    );
    expect(rows.map((r) => r.identifier)).toContain('purge_expired_outputs');
  });

  it('deletes expired outputs and face crops once, keeps the rest, /status still answers', async () => {
    const old = await submit('an old harbour at dusk', 2);
    const recent = await submit('a recent harbour at dawn');
    expect(old.status, old.text).toBe(202);
    expect(recent.status, recent.text).toBe(202);
    const oldId = old.body.data.id as string;
    const recentId = recent.body.data.id as string;
    for (const id of [oldId, recentId]) expect((await waitDone(srv, id)).status).toBe('completed');

    const detect = await call(srv, 'POST', '/face-swap/detect', {
      key: srv.apiKey,
      body: { source_image: files.url('portrait-hopper.jpg') },
    });
    expect(detect.status, detect.text).toBe(200);
    const cropUrls = detect.body.data.faces as string[];
    expect(cropUrls.length).toBeGreaterThan(0);
    const crops = (await db.query<{ key: string }>(`select key from face_crops`)).rows.map((r) => r.key);
    expect(crops).toHaveLength(cropUrls.length);

    const oldKeys = await outputKeys(oldId);
    const recentKeys = await outputKeys(recentId);
    expect(oldKeys).toHaveLength(2);
    for (const key of [...oldKeys, ...recentKeys, ...crops]) expect(await exists(key), key).toBe(true);

    // Age them: 8 days + 1 hour is past the 7 days of validity + 24 h of grace; 7.5 days is expired
    // but still inside the grace, so kept.
    await db.query(`update generations set created_at = now() - interval '8 days 1 hour' where id = $1`, [
      oldId,
    ]);
    await db.query(`update generations set created_at = now() - interval '7 days 12 hours' where id = $1`, [
      recentId,
    ]);
    await db.query(`update face_crops set created_at = now() - interval '9 days'`);
    // One of the old outputs is already gone (deleted by hand, or a run that crashed): no error.
    await rm(join(srv.storageDir, ...oldKeys[1]!.split('/')));

    await runPurge();

    for (const key of [...oldKeys, ...crops]) expect(await exists(key), key).toBe(false);
    for (const key of recentKeys) expect(await exists(key), key).toBe(true);
    expect((await db.query(`select key from face_crops`)).rows).toEqual([]);
    const firstPurge = await purgedAt(oldId);
    expect(firstPurge).toBeInstanceOf(Date);
    expect(await purgedAt(recentId)).toBeNull();

    const status = await call(srv, 'GET', `/status/${oldId}`, { key: srv.apiKey });
    expect(status.status, status.text).toBe(200);
    const view = Generation.parse(status.body.data);
    expect(view.status).toBe('completed');
    expect(view.output_url).toBeNull();
    expect(view.output_urls).toBeUndefined();
    expect(Date.parse(view.expires_at!)).toBeLessThan(Date.now());
    const kept = await call(srv, 'GET', `/status/${recentId}`, { key: srv.apiKey });
    expect(kept.body.data.output_url).toMatch(/\/files\//);

    // A second run finds nothing: the mark is not moved and the younger files stay.
    await runPurge();
    expect(await purgedAt(oldId)).toEqual(firstPurge);
    expect(await purgedAt(recentId)).toBeNull();
    for (const key of recentKeys) expect(await exists(key), key).toBe(true);
  }, 300_000);

  it('two runs at once never delete the same outputs twice', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await submit(`a concurrent purge ${i}`);
      expect(res.status, res.text).toBe(202);
      ids.push(res.body.data.id);
    }
    for (const id of ids) expect((await waitDone(srv, id)).status).toBe('completed');
    const keys = (await Promise.all(ids.map(outputKeys))).flat();
    await db.query(
      `update generations set created_at = now() - interval '10 days' where id = any($1::uuid[])`,
      [ids],
    );
    // The same code the job runs, twice at once, on a store that records (and slows) every delete so
    // that both transactions overlap.
    const deleted: string[] = [];
    const local = new LocalStorage(srv.storageDir);
    const storage = Object.assign(Object.create(local) as LocalStorage, {
      async delete(key: string) {
        deleted.push(key);
        await new Promise((r) => setTimeout(r, 100));
        await local.delete(key);
      },
    });
    const ctx = {
      pool: db,
      storage,
      config: { outputRetentionGraceHours: 24 },
      log: { debug() {}, info() {}, warn() {}, error() {} },
    } as unknown as AppContext;
    const [a, b] = await Promise.all([purgeExpiredOutputs(ctx), purgeExpiredOutputs(ctx)]);
    expect(new Set(deleted).size).toBe(deleted.length);
    // Together they took each generation once (none only if the server's own hourly run came first).
    expect(a.generations + b.generations).toBe(deleted.length === 0 ? 0 : ids.length);
    for (const key of keys) expect(await exists(key), key).toBe(false);
    for (const id of ids) expect(await purgedAt(id)).toBeInstanceOf(Date);
  }, 300_000);
});
