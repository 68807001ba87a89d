/**
 * Workers that die: a worker killed with SIGKILL mid-job (its jobs are unlocked by a peer through the
 * worker_processes heartbeat and run again: charged once, refunded at most once), and a worker
 * stopped with SIGTERM mid-job (the job is handed back at once, not left locked for hours).
 * The job is held mid-flight by an input server that answers the first request for a file late.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../dist/testing/index.js';
import { accountView, call, FIXTURES, startServer, waitDone } from '../helpers.js';

const JPEG = readFileSync(join(FIXTURES, 'media', 'scene.jpg'));

/** Serves /<name>.jpg; the first request for a name is held until released; `gone-*` names 404 after that. */
class HoldingServer {
  private server!: Server;
  private seen = new Map<string, number>();
  private waiters: Array<() => void> = [];
  private held: Array<() => void> = [];
  base = '';

  async start() {
    this.server = createServer((req, res) => {
      const name = (req.url ?? '/').slice(1);
      const n = (this.seen.get(name) ?? 0) + 1;
      this.seen.set(name, n);
      for (const w of this.waiters.splice(0)) w();
      const answer = () => {
        if (res.destroyed) return;
        if (name.startsWith('gone-')) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': JPEG.length }).end(JPEG);
      };
      if (n === 1) this.held.push(answer);
      else answer();
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  requests(name: string) {
    return this.seen.get(name) ?? 0;
  }

  async waitForRequests(names: string[]) {
    while (!names.every((n) => this.requests(n) > 0)) await new Promise<void>((r) => this.waiters.push(r));
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

let srv: TestServer;
let inputs: HoldingServer;
let db: pg.Pool;
beforeAll(async () => {
  inputs = new HoldingServer();
  await inputs.start();
  srv = await startServer({ api: 1, workers: 1 });
  db = new pg.Pool({ connectionString: srv.databaseUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
  await srv?.stop();
  await inputs?.close();
});

const submit = (key: string, name: string) =>
  call(srv, 'POST', '/scene-painter/image-to-image', {
    key,
    body: { prompt: 'warmer', image: `${inputs.base}/${name}` },
  });

describe('a worker killed mid-job', () => {
  it('SIGKILL: the jobs run again on another worker; charged once, refunded at most once', async () => {
    const a = await srv.createAccount(1);
    const ok = (await submit(a.apiKey, 'kill-ok.jpg')).body.data;
    const bad = (await submit(a.apiKey, 'gone-kill.jpg')).body.data;
    await inputs.waitForRequests(['kill-ok.jpg', 'gone-kill.jpg']); // both jobs are mid-flight
    const worker = srv.processes.find((p) => p.kind === 'worker')!;
    await worker.kill('SIGKILL');
    await srv.startProcess('worker');
    const okDone = await waitDone(srv, ok.id, a.apiKey, 180_000);
    const badDone = await waitDone(srv, bad.id, a.apiKey, 180_000);
    expect(okDone.status).toBe('completed');
    expect(badDone.status).toBe('failed');
    expect(inputs.requests('kill-ok.jpg')).toBeGreaterThanOrEqual(2); // it really ran again
    const attempts = await db.query<{ id: string; attempts: number }>(
      'select id, attempts from generations where id = any($1)',
      [[ok.id, bad.id]],
    );
    for (const r of attempts.rows) expect(r.attempts).toBeGreaterThanOrEqual(2);
    const view = await accountView(srv, a.accountId);
    const rows = (id: string, kind: string) =>
      view.ledger.filter((l) => l.generation_id === id && l.kind === kind);
    expect(rows(ok.id, 'charge')).toHaveLength(1);
    expect(rows(ok.id, 'refund')).toHaveLength(0);
    expect(rows(bad.id, 'charge')).toHaveLength(1);
    expect(rows(bad.id, 'refund')).toHaveLength(1);
    expect(view.balance_usd).toBeCloseTo(1 - 0.012, 6);
  }, 240_000);

  it('SIGTERM: the running job is handed back unlocked and runs again', async () => {
    const a = await srv.createAccount(1);
    const gen = (await submit(a.apiKey, 'term.jpg')).body.data;
    await inputs.waitForRequests(['term.jpg']);
    const worker = srv.processes.find(
      (p) => p.kind === 'worker' && p.child.exitCode === null && p.child.signalCode === null,
    )!;
    expect(await worker.kill('SIGTERM')).toBe(0); // graceful exit
    const job = await db.query<{
      locked_at: Date | null;
      attempts: number;
      run_at: Date;
      last_error: string | null;
    }>(
      `select locked_at, attempts, run_at, last_error from graphile_worker._private_jobs where payload->>'generation_id' = $1`,
      [gen.id],
    );
    expect(job.rows).toHaveLength(1);
    expect(job.rows[0]!.locked_at).toBeNull(); // not left locked for hours
    expect(job.rows[0]!.run_at.getTime() - Date.now()).toBeLessThan(60_000); // due again within a minute
    await srv.startProcess('worker');
    const done = await waitDone(srv, gen.id, a.apiKey, 180_000);
    expect(done.status).toBe('completed');
    const view = await accountView(srv, a.accountId);
    expect(view.ledger.filter((l) => l.kind === 'charge')).toHaveLength(1);
    expect(view.ledger.filter((l) => l.kind === 'refund')).toHaveLength(0);
  }, 240_000);
});
