/**
 * Starting `node server/dist/main.js` with no DATABASE_URL: the embedded PostgreSQL (as root it runs
 * as the postgres user, relocated out of a directory that user cannot enter), the development
 * account and its key printed on every start, a graceful SIGTERM, one graceful stop for a Ctrl-C that
 * arrives three times, recovery from an orphan postgres
 * left by a killed server, and clear messages for a taken port or a data dir already in use.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort, MAIN_JS } from '../../dist/testing/index.js';

interface Started {
  child: ChildProcess;
  out: () => string;
  exit: Promise<number | null>;
}

const running = new Set<ChildProcess>();

function start(env: Record<string, string>, args: string[] = []): Started {
  const child = spawn(process.execPath, [MAIN_JS, ...args], {
    env: { ...process.env, MEDIAGEN_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((r) =>
    child.once('exit', (code) => {
      running.delete(child);
      r(code);
    }),
  );
  return { child, out: () => out, exit };
}

async function started(s: Started): Promise<{ baseUrl: string; apiKey: string }> {
  const end = Date.now() + 120_000;
  while (!s.out().includes('mediagen server started')) {
    if (s.child.exitCode !== null) throw new Error(`exited ${s.child.exitCode}:\n${s.out()}`);
    if (Date.now() > end) throw new Error(`no start banner:\n${s.out()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 50));
  const baseUrl = /base URL:\s+(\S+)/.exec(s.out())![1]!;
  const apiKey = /API key:\s+(\S+)/.exec(s.out())![1]!;
  return { baseUrl, apiKey };
}

function postmasterPid(dataDir: string): number {
  const pointer = join(dataDir, 'postgres.location');
  const pgData = existsSync(pointer) ? readFileSync(pointer, 'utf8').trim() : join(dataDir, 'postgres');
  return Number(readFileSync(join(pgData, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mediagen-start-')); // mode 0700
});
afterAll(async () => {
  for (const c of running) c.kill('SIGKILL');
  const pointer = join(dataDir, 'postgres.location');
  if (existsSync(pointer)) await rm(readFileSync(pointer, 'utf8').trim(), { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

describe('zero-setup start on the embedded PostgreSQL', () => {
  it('first start prints the base URL and a working key; SIGTERM stops everything; the next start prints the same key', async () => {
    const env = { MEDIAGEN_DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' };
    const first = start(env);
    const a = await started(first);
    expect(a.baseUrl).toBe(`http://127.0.0.1:${env.PORT}/api/v3`);
    expect(first.out()).toMatch(/\$100 of credits/);
    const res = await fetch(`${a.baseUrl}/models`, { headers: { authorization: `Bearer ${a.apiKey}` } });
    expect(res.status).toBe(200);
    if (process.getuid?.() === 0) {
      // The postgres user cannot enter the 0700 temp dir: the cluster was placed elsewhere, and said so.
      expect(existsSync(join(dataDir, 'postgres.location'))).toBe(true);
      expect(first.out()).toMatch(/cannot enter/);
    }
    const pid = postmasterPid(dataDir);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(alive(pid)).toBe(false);
    expect(readFileSync(join(dataDir, 'dev-key'), 'utf8').trim()).toBe(a.apiKey);

    const second = start(env);
    const b = await started(second);
    expect(b.apiKey).toBe(a.apiKey);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  }, 240_000);

  it('Ctrl-C: one SIGINT delivered three times at once (terminal, npm, scripts/run.mjs) is one graceful stop', async () => {
    const env = { MEDIAGEN_DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' };
    const s = start(env);
    await started(s);
    const pid = postmasterPid(dataDir);
    for (let i = 0; i < 3; i++) s.child.kill('SIGINT');
    expect(await s.exit).toBe(0);
    expect(s.out()).toMatch(/SIGINT: shutting down/);
    expect(s.out()).not.toMatch(/again: exiting now/);
    expect(s.out()).toMatch(/stopped/);
    expect(alive(pid)).toBe(false);
  }, 240_000);

  it('SIGTERM while the models still load waits for them, then exits 0 (exiting mid-load aborted the process)', async () => {
    // onnxruntime-node throws a native error, and the process dies of SIGABRT, when the process exits
    // while it is still creating a session. The banner comes before the warm-up (about 1.5 s) is done.
    const env = { MEDIAGEN_DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' };
    const s = start(env);
    await started(s);
    s.child.kill('SIGTERM');
    expect(await s.exit).toBe(0);
    const out = s.out();
    const shuttingDown = out.indexOf('SIGTERM: shutting down');
    const loaded = out.indexOf('moderation and face models loaded');
    const stopped = out.indexOf('] stopped');
    expect(shuttingDown).toBeGreaterThan(-1);
    expect(loaded).toBeGreaterThan(shuttingDown); // the signal came mid-warm-up...
    expect(stopped).toBeGreaterThan(loaded); // ...and the exit waited for it
    expect(out).not.toMatch(/Napi::Error|terminate called/);
  }, 240_000);

  it('a postgres orphaned by a killed server is recovered on the next start', async () => {
    const env = { MEDIAGEN_DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' };
    const first = start(env);
    await started(first);
    const pid = postmasterPid(dataDir);
    first.child.kill('SIGKILL');
    await first.exit;
    expect(alive(pid)).toBe(true); // the orphan
    const second = start(env);
    const b = await started(second);
    expect(second.out()).toMatch(/left running by a server that was killed/);
    expect(alive(pid)).toBe(false);
    expect(
      (await fetch(`${b.baseUrl}/models`, { headers: { authorization: `Bearer ${b.apiKey}` } })).status,
    ).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  }, 240_000);

  it('a data dir in use by a running server, and a taken port, give a clear message and exit 1', async () => {
    const env = { MEDIAGEN_DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' };
    const first = start(env);
    await started(first);
    const clash = start({ ...env, PORT: String(await freePort()) });
    expect(await clash.exit).toBe(1);
    expect(clash.out()).toMatch(/another mediagen server \(pid \d+\) is running on the data directory/);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const taken = start({ ...env, MEDIAGEN_EMBEDDED_PG_PORT: String(port) });
      expect(await taken.exit).toBe(1);
      expect(taken.out()).toMatch(new RegExp(`port ${port} .*in use.*MEDIAGEN_EMBEDDED_PG_PORT`));
      expect(taken.out()).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      blocker.close();
    }
  }, 240_000);

  it('--migrate-only applies the migrations and exits; bad configuration is reported by name', async () => {
    const url = new URL(inject('pgUrl'));
    const migrated = start({ DATABASE_URL: url.href }, ['--migrate-only']);
    expect(await migrated.exit).toBe(0);
    const bad = start({ DATABASE_URL: url.href, PORT: 'eighty', MEDIAGEN_RATE_LIMIT: 'lots' });
    expect(await bad.exit).toBe(1);
    expect(bad.out()).toMatch(/PORT: /);
    expect(bad.out()).toMatch(/MEDIAGEN_RATE_LIMIT: must look like/);
  }, 120_000);
});
