/**
 * Starting the server: config -> database (DATABASE_URL or embedded PostgreSQL) -> migrations ->
 * API and/or worker.
 *   node server/dist/main.js               API + in-process worker (default)
 *   node server/dist/main.js --api         API only        (scale out: any number of each)
 *   node server/dist/main.js --worker      worker only
 *   node server/dist/main.js --migrate-only  apply migrations and exit (docker's one-shot step)
 * SIGTERM/SIGINT: stop accepting, let running jobs finish or hand them back, close the pool, stop
 * the embedded PostgreSQL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { ensureDevAccount } from './accounts/devAccount.js';
import { API_PREFIX, createApp } from './api/app.js';
import { AUTHENTICATE_WARM_UP } from './api/auth.js';
import { answerClientErrors } from './api/clientError.js';
import { GenerationEvents } from './api/generationEvents.js';
import { WARM_UP_RETRY_MS, type Readiness } from './api/routes/health.js';
import { CatalogError, loadCatalog } from './catalog/catalog.js';
import { ConfigError, loadConfig } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/database.js';
import { EmbeddedPostgresError } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { createPool, endPool } from './db/pool.js';
import { signingSecret } from './db/secrets.js';
import { warmPool } from './db/warmPool.js';
import { faceEngines, moderationEngine } from './engines/registry.js';
import { startWorker, type WorkerHandle } from './jobs/worker.js';
import { createLogger } from './log.js';
import { MediaFetcher } from './media/fetch.js';
import { LocalStorage } from './storage/local.js';
import { UrlSigner } from './storage/signedUrl.js';

function parseFlags(argv: string[]) {
  const known = new Set(['--api', '--worker', '--migrate-only', '--help']);
  for (const a of argv) {
    if (!known.has(a)) {
      console.error(`unknown option ${a}; options: --api, --worker, --migrate-only`);
      process.exit(2);
    }
  }
  if (argv.includes('--help')) {
    console.log(
      'usage: node server/dist/main.js [--api] [--worker] [--migrate-only]  (both API and worker by default)',
    );
    process.exit(0);
  }
  const api = argv.includes('--api');
  const worker = argv.includes('--worker');
  return { migrateOnly: argv.includes('--migrate-only'), api: api || !worker, worker: worker || !api };
}

async function main() {
  const flags = parseFlags(process.argv.slice(2));
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const catalog = loadCatalog(config.catalogPath);

  const db = await openDatabase(config, log);
  const apiConnections = flags.api ? API_CONNECTIONS : 0;
  const poolSize = apiConnections + (flags.worker ? config.workerConcurrency + 4 : 0);
  const pool = createPool(db.url, Math.max(4, poolSize), apiConnections);
  const cleanups: Array<() => Promise<unknown>> = [];
  const closeDb = async () => {
    await endPool(pool).catch(() => undefined);
    await db.embedded?.stop();
  };
  onStartFailure = closeDb;
  try {
    await migrate(pool, (l) => log.info(l));
  } catch (err) {
    await closeDb();
    throw err;
  }
  if (flags.migrateOnly) {
    log.info('migrations applied');
    await closeDb();
    return;
  }

  // The API's connections are opened now, each with the authentication function compiled, so the first
  // burst of calls does not open them (db/warmPool.ts); the pool keeps them open while it idles.
  if (apiConnections > 0) {
    await warmPool(pool, apiConnections, AUTHENTICATE_WARM_UP.sql, [...AUTHENTICATE_WARM_UP.params]);
  }

  const storage = new LocalStorage(config.storageDir);
  const secret = await signingSecret(pool, config.signingSecret);

  let server: Server | undefined;
  let port = config.port;
  if (flags.api) {
    server = createServer();
    server.keepAliveTimeout = 65_000;
    answerClientErrors(server);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(config.port, config.host, () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  }
  const publicUrl = config.publicUrl ?? `http://127.0.0.1:${port}`;
  const signer = new UrlSigner(secret, publicUrl);
  const fetcher = new MediaFetcher({ allowPrivate: config.allowPrivateUrls, storage, signer });
  const ctx: AppContext = { config, pool, catalog, storage, signer, fetcher, publicUrl, log };

  let events: GenerationEvents | undefined;
  // The engines' warm-up in flight, if any: exiting while onnxruntime-node is still creating a session
  // aborts the process (a native error thrown during teardown), so shutdown waits for it.
  let warming: Promise<unknown> | undefined;
  if (server) {
    events = new GenerationEvents(db.url, log);
    await events.start();
    const readiness: Readiness = { engines: 'warming' };
    server.on('request', createApp(ctx, events, readiness));
    // /readyz turns 200 once the models the API serves synchronously are loaded.
    let lastTry = 0;
    const warm = () => {
      if (Date.now() - lastTry < WARM_UP_RETRY_MS && readiness.engines === 'failed') return;
      lastTry = Date.now();
      readiness.engines = 'warming';
      // One after the other, so the log says which failed; the shared TensorFlow.js wasm backend is
      // initialised once (engines/moderation/tfBackend.ts), so the order is not needed for correctness.
      warming = (async () => {
        await (await moderationEngine()).warmUp();
        await (await faceEngines()).warmUpFaces();
      })().then(
        () => {
          readiness.engines = 'ready';
          log.info('moderation and face models loaded: ready');
        },
        (err: Error) => {
          readiness.engines = 'failed';
          readiness.detail = err.message;
          log.error(`warming up the engines failed (retried on /readyz): ${err.message}`);
        },
      );
    };
    readiness.retry = warm;
    warm();
  }

  let worker: WorkerHandle | undefined;
  if (flags.worker) worker = await startWorker(ctx);

  let shutdownStarted: number | undefined;
  const shutdown = async (signal: string) => {
    if (shutdownStarted !== undefined) {
      // One Ctrl-C reaches this process up to three times at once: from the terminal (the whole
      // process group) and forwarded by npm and by scripts/run.mjs. Only a signal well after the first
      // is someone asking again.
      if (Date.now() - shutdownStarted < REPEATED_SIGNAL_MS) return;
      log.warn(`${signal} again: exiting now`);
      process.exit(1); // db/embedded.ts still asks the embedded PostgreSQL to stop on exit
    }
    shutdownStarted = Date.now();
    log.info(`${signal}: shutting down`);
    const closing = server
      ? new Promise<void>((resolve) => {
          server!.close(() => resolve());
          server!.closeIdleConnections();
        })
      : Promise.resolve();
    await events?.close(); // releases `Prefer: wait` requests
    await worker?.stop();
    setTimeout(() => server?.closeAllConnections(), 10_000).unref();
    await closing;
    if (warming) await Promise.race([warming, delay(WARM_UP_SHUTDOWN_WAIT_MS)]);
    for (const c of cleanups) await c().catch(() => undefined);
    await fetcher.close().catch(() => undefined);
    await closeDb();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const lines = ['', 'mediagen server started'];
  if (server)
    lines.push(`  base URL:  ${publicUrl}${API_PREFIX}`, `  listening on http://${config.host}:${port}`);
  if (worker) lines.push(`  worker:    ${config.workerConcurrency} concurrent jobs`);
  if (db.embedded)
    lines.push(`  database:  embedded PostgreSQL on 127.0.0.1:${db.embedded.port} (${db.embedded.pgData})`);
  if (config.devAccount && server) {
    const dev = await ensureDevAccount(pool, config.dataDir);
    lines.push(
      `  API key:   ${dev.apiKey}`,
      `             (development account ${dev.accountId}${dev.created ? ', $100 of credits' : ''}; the key is kept in ${dev.keyFile})`,
    );
  }
  if (config.adminToken) lines.push(`  admin API: ${publicUrl}/admin/v1 (Bearer MEDIAGEN_ADMIN_TOKEN)`);
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');
  onStartFailure = undefined;
}

/** Database connections an API process keeps open for its requests (authentication, billing, submits). */
const API_CONNECTIONS = 10;
/** A signal this soon after the first is the same Ctrl-C delivered again, not a second request. */
const REPEATED_SIGNAL_MS = 2000;
/** How long a shutdown waits for an engine warm-up still loading its models (normally 1-2 s). */
const WARM_UP_SHUTDOWN_WAIT_MS = 15_000;

/** Undoes what a failed start already did (stops the embedded PostgreSQL). */
let onStartFailure: (() => Promise<void>) | undefined;

process.on('unhandledRejection', (err) => {
  console.error(`unhandled rejection: ${(err as Error)?.stack ?? String(err)}`);
});

main().catch(async (err: unknown) => {
  await onStartFailure?.().catch(() => undefined);
  if (err instanceof ConfigError || err instanceof CatalogError || err instanceof EmbeddedPostgresError) {
    console.error(`mediagen: ${err.message}`);
  } else if ((err as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
    console.error(
      `mediagen: port ${(err as { port?: number }).port} is already in use; set PORT to a free port`,
    );
  } else {
    console.error(`mediagen: failed to start: ${(err as Error)?.stack ?? String(err)}`);
  }
  process.exit(1);
});
