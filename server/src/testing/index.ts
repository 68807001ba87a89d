/**
 * `@mediagen/server/testing`: start the REAL server for tests in other packages (and our own).
 *
 *   const srv = await startTestServer({ env?, api?: 1, workers?: 0 });
 *   srv.baseUrl  // http://127.0.0.1:<port>/api/v3 ; srv.apiKey (funded $100), srv.accountId,
 *   srv.adminToken, srv.databaseUrl; await srv.createAccount(usd); await srv.topUp(id, usd); await srv.stop()
 *
 * It starts an embedded PostgreSQL in a temp dir (or uses `databaseUrl`), applies the migrations,
 * then runs `node server/dist/main.js` child processes with MEDIAGEN_ALLOW_PRIVATE_URLS=true: one
 * process doing API + worker by default, or `api` API processes plus `workers` worker processes.
 * Needs `npx tsc -b server` first. Every process it starts is stopped by stop() (and killed if the
 * test process exits without calling it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase } from '../db/database.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { createPool } from '../db/pool.js';

export const MAIN_JS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'main.js');

export interface TestServerOptions {
  /** Extra environment for the server processes (e.g. MEDIAGEN_RATE_LIMIT, MEDIAGEN_CATALOG). */
  env?: Record<string, string>;
  /** Number of API processes (default 1). */
  api?: number;
  /** Number of separate worker processes (default 0: the API process runs the worker too). */
  workers?: number;
  /** Use this PostgreSQL server (a database named here is created) instead of a new embedded one. */
  databaseUrl?: string;
  /** Print the server processes' output (default: only when a start fails). */
  verbose?: boolean;
}

export interface ServerProcess {
  kind: 'api' | 'worker' | 'both';
  child: ChildProcess;
  /** For API processes: http://127.0.0.1:<port>/api/v3 */
  baseUrl?: string;
  port?: number;
  output(): string;
  /** Sends a signal and waits for the exit; returns the exit code (null when killed by a signal). */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

export interface TestServer {
  baseUrl: string;
  apiKey: string;
  accountId: string;
  adminToken: string;
  databaseUrl: string;
  storageDir: string;
  processes: ServerProcess[];
  createAccount(balanceUsd: number): Promise<{ accountId: string; apiKey: string }>;
  topUp(accountId: string, amountUsd: number): Promise<number>;
  /** Starts one more process against the same database and storage. */
  startProcess(kind: 'api' | 'worker' | 'both', env?: Record<string, string>): Promise<ServerProcess>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createNetServer();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolvePort(port));
    });
  });
}

const liveChildren = new Set<ChildProcess>();
// (An embedded PostgreSQL stops itself when this process exits: db/embedded.ts.)
process.once('exit', () => {
  for (const c of liveChildren) c.kill('SIGKILL');
});

function spawnServer(
  kind: 'api' | 'worker' | 'both',
  env: Record<string, string>,
  verbose: boolean,
): Promise<ServerProcess> {
  const args = kind === 'api' ? ['--api'] : kind === 'worker' ? ['--worker'] : [];
  const child = spawn(process.execPath, [MAIN_JS, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  let out = '';
  const onData = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
    if (verbose) process.stderr.write(`[${kind}:${child.pid}] ${d.toString()}`);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((r) =>
    child.once('exit', (code) => {
      liveChildren.delete(child);
      r(code);
    }),
  );
  const proc: ServerProcess = {
    kind,
    child,
    output: () => out,
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const t = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
  if (kind !== 'worker') {
    proc.port = Number(env.PORT);
    proc.baseUrl = `http://127.0.0.1:${env.PORT}/api/v3`;
  }
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server (${kind}) did not start within 90 s:\n${out.slice(-4000)}`));
    }, 90_000);
    const check = () => {
      if (out.includes('mediagen server started')) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolveStart(proc);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server (${kind}) exited with code ${code} at start:\n${out.slice(-4000)}`));
    });
  });
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'mediagen-test-'));
  // mkdtemp makes it 0700; as root the postgres user must be able to enter it, or the cluster would
  // be relocated under /var/lib/mediagen (see db/embedded.ts). Its own data dir stays 0700.
  await chmod(dir, 0o755);
  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl: string;
  const processes: ServerProcess[] = [];
  const cleanup = async () => {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    if (embedded) {
      await embedded.stop();
      if (embedded.pgData !== join(dir, 'pg', 'postgres'))
        await rm(embedded.pgData, { recursive: true, force: true });
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    if (options.databaseUrl) {
      databaseUrl = await ensureDatabase(options.databaseUrl, `mediagen_${randomBytes(6).toString('hex')}`);
    } else {
      embedded = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), log: () => undefined });
      databaseUrl = await ensureDatabase(embedded.url, 'mediagen');
    }
    const pool = createPool(databaseUrl, 2);
    try {
      await migrate(pool);
    } finally {
      await pool.end();
    }
    const adminToken = randomBytes(24).toString('hex');
    const storageDir = join(dir, 'storage');
    const baseEnv: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      MEDIAGEN_ADMIN_TOKEN: adminToken,
      MEDIAGEN_SIGNING_SECRET: randomBytes(32).toString('hex'),
      MEDIAGEN_ALLOW_PRIVATE_URLS: 'true',
      MEDIAGEN_STORAGE_DIR: storageDir,
      MEDIAGEN_DATA_DIR: join(dir, 'data'),
      MEDIAGEN_DEV_ACCOUNT: 'false',
      MEDIAGEN_RATE_LIMIT: '200/s,burst=400',
      MEDIAGEN_LOG_LEVEL: 'warn',
      ...options.env,
    };
    const verbose = options.verbose ?? false;
    const startProcess = async (kind: 'api' | 'worker' | 'both', env: Record<string, string> = {}) => {
      const port = kind === 'worker' ? 0 : await freePort();
      const p = await spawnServer(kind, { ...baseEnv, PORT: String(port), ...env }, verbose);
      processes.push(p);
      return p;
    };
    const apiCount = Math.max(1, options.api ?? 1);
    const workerCount = options.workers ?? 0;
    const starts: Array<Promise<ServerProcess>> = [];
    for (let i = 0; i < apiCount; i++)
      starts.push(startProcess(workerCount > 0 || apiCount > 1 ? 'api' : 'both'));
    for (let i = 0; i < workerCount; i++) starts.push(startProcess('worker'));
    await Promise.all(starts);
    const first = processes.find((p) => p.baseUrl)!;
    const root = first.baseUrl!.replace(/\/api\/v3$/, '');
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${root}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as {
        success: boolean;
        data?: Record<string, unknown>;
        error?: { message: string };
      };
      if (!json.success)
        throw new Error(`admin ${method} ${path} failed: ${res.status} ${json.error?.message}`);
      return json.data!;
    };
    const createAccount = async (balanceUsd: number) => {
      const a = await admin('POST', '/accounts', { balance_usd: balanceUsd });
      const k = await admin('POST', `/accounts/${String(a.account_id)}/keys`, {});
      return { accountId: String(a.account_id), apiKey: String(k.api_key) };
    };
    const main = await createAccount(100);
    return {
      baseUrl: first.baseUrl!,
      apiKey: main.apiKey,
      accountId: main.accountId,
      adminToken,
      databaseUrl,
      storageDir,
      processes,
      createAccount,
      topUp: async (accountId, amountUsd) =>
        Number(
          (await admin('POST', `/accounts/${accountId}/credits`, { amount_usd: amountUsd })).balance_usd,
        ),
      startProcess,
      stop: cleanup,
    };
  } catch (err) {
    if (!options.verbose) {
      for (const p of processes) process.stderr.write(p.output().slice(-3000));
    }
    await cleanup();
    throw err;
  }
}

export { startFileServer, type FileServer, type FileServerOptions } from './fileServer.js';
