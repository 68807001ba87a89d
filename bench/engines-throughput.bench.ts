/**
 * Worker throughput (issue 5): text-to-image jobs completed per second by a real server (one process,
 * API + worker, default concurrency) from the first submit to the last completion, as a ratio to
 * graphile-worker draining the same number of empty jobs at the same concurrency, on the same
 * PostgreSQL, in the same run (the queue's own floor).
 * Needs `npx tsc -b server` first (it starts server/dist/main.js).
 * Run: `npm run bench -- engines-throughput`. Writes the "Worker throughput" section of docs/benchmarks.md.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createClient } from '../packages/core/dist/client/undici.js';
import { startTestServer } from '../server/dist/testing/index.js';
import { ensureDatabase } from '../server/dist/db/database.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'server/package.json'));
// eslint-disable-next-line @typescript-eslint/consistent-type-imports -- resolves from server/, not from bench/
const graphileWorker = require('graphile-worker') as typeof import('graphile-worker');
const JOBS = Number(process.env.BENCH_JOBS ?? 20);
const CONCURRENCY = 2; // MEDIAGEN_WORKER_CONCURRENCY's default (server/src/config.ts)

async function drainEmptyJobs(adminUrl: string): Promise<number> {
  const connectionString = await ensureDatabase(adminUrl, `bench_empty_${Date.now()}`);
  let done = 0;
  let finish: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => (finish = resolve));
  const runner = await graphileWorker.run({
    connectionString,
    concurrency: CONCURRENCY,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: new graphileWorker.Logger(() => () => undefined),
    taskList: { noop: async () => undefined },
  });
  runner.events.on('job:complete', () => {
    if (++done === JOBS) finish();
  });
  const t = performance.now();
  for (let i = 0; i < JOBS; i++) await runner.addJob('noop', { i });
  await allDone;
  const seconds = (performance.now() - t) / 1000;
  await runner.stop();
  return JOBS / seconds;
}

async function main() {
  const srv = await startTestServer({});
  let imagesPerSecond: number;
  let emptyPerSecond: number;
  try {
    const client = createClient({ apiKey: srv.apiKey, baseUrl: srv.baseUrl, useEnv: false });
    // Warm the worker (engine modules loaded) with one job first.
    await client.generate('scene-painter', 'text-to-image', { prompt: 'warm up' }, { timeoutMs: 120_000 });
    const t = performance.now();
    const submitted = [];
    for (let i = 0; i < JOBS; i++) {
      submitted.push(
        await client.submit('scene-painter', 'text-to-image', { prompt: `a lake among hills, number ${i}` }),
      );
    }
    await Promise.all(
      submitted.map((g) => client.waitForGeneration(g, { timeoutMs: 600_000, waitSeconds: 30 })),
    );
    imagesPerSecond = JOBS / ((performance.now() - t) / 1000);
    emptyPerSecond = await drainEmptyJobs(srv.databaseUrl);
  } finally {
    await srv.stop();
  }

  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const section = [
    '<!-- engines-throughput:start -->',
    '## Worker throughput (text-to-image)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu}, ${cpus().length} cores, ` +
      `${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}. One server process (API + worker, ` +
      `concurrency ${CONCURRENCY}, embedded PostgreSQL), ${JOBS} default text-to-image jobs (1k, 1:1, png) submitted ` +
      'over HTTP, timed from the first submit to the last completion. Baseline: graphile-worker 0.16.6 draining the ' +
      'same number of empty jobs at the same concurrency on the same PostgreSQL, in the same run.',
    '',
    '| What | Jobs per second | Baseline (same run) | Ratio |',
    '|---|---|---|---|',
    `| text-to-image jobs completed | ${imagesPerSecond.toFixed(2)} | empty graphile-worker jobs ${emptyPerSecond.toFixed(1)} | ${(imagesPerSecond / emptyPerSecond).toFixed(3)}x |`,
    '<!-- engines-throughput:end -->',
  ].join('\n');
  console.log(section);
  const docs = join(root, 'docs/benchmarks.md');
  let text = await readFile(docs, 'utf8').catch(() => '# Benchmarks\n\nWritten by `npm run bench`.\n');
  const marker = /<!-- engines-throughput:start -->[\s\S]*<!-- engines-throughput:end -->/;
  text = marker.test(text) ? text.replace(marker, section) : `${text.trimEnd()}\n\n${section}\n`;
  await writeFile(docs, text);
}

await main();
