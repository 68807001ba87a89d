/**
 * Worker throughput and latency (issue 5): time from submit to completed for one default job of each
 * task through the real server, and text-to-image jobs completed per second by a real server (one process,
 * API + worker, default concurrency) from the first submit to the last completion, as a ratio to
 * graphile-worker draining the same number of empty jobs at the same concurrency, on the same
 * PostgreSQL, in the same run (the queue's own floor).
 * Needs `npx tsc -b server` first (it starts server/dist/main.js).
 * Run: `npm run bench -- engines-throughput`. Writes the "Worker throughput" section of docs/benchmarks.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createClient } from '../packages/core/dist/client/undici.js';
import { startFileServer, startTestServer } from '../server/dist/testing/index.js';
import { ensureDatabase } from '../server/dist/db/database.js';
import { writeSection } from './lib/benchDoc.js';
import { makeBenchInputs } from './lib/benchInputs.js';

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

/** One job per task with default parameters, submit to completed, through the real server. */
async function latencies(client: ReturnType<typeof createClient>): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'engines-latency-'));
  const files = await startFileServer(dir);
  try {
    await makeBenchInputs(dir);
    const photo = files.url('photo.jpg');
    const clip = files.url('clip.mp4');
    const jobs: Array<[string, string, string, Record<string, unknown>, string]> = [
      [
        'scene-painter',
        'text-to-image',
        'defaults (1k 1:1 png)',
        { prompt: 'mountains by a lake at sunset' },
        'image 3-15 s',
      ],
      [
        'scene-painter',
        'image-to-image',
        '1024x1024 jpeg in',
        { prompt: 'black and white', image: photo },
        'image 3-15 s',
      ],
      [
        'scene-animator',
        'text-to-video',
        'defaults (5 s 720p)',
        { prompt: 'a lake among mountains at sunset' },
        'video 30 s - 5 min',
      ],
      [
        'scene-animator',
        'image-to-video',
        'defaults (5 s 720p)',
        { image: photo, prompt: 'zoom in' },
        'video 30 s - 5 min',
      ],
      [
        'scene-animator',
        'reference-to-video',
        '2 images + audio, defaults (5 s 720p)',
        {
          prompt: '@Image2 then @Image1',
          reference_images: [photo, photo],
          reference_audios: [files.url('tune.mp3')],
        },
        'video 30 s - 5 min',
      ],
      [
        'scene-animator',
        'video-to-video',
        '5 s 720p in, sepia',
        { prompt: 'sepia', image: clip },
        'video 30 s - 5 min',
      ],
      [
        'scene-animator',
        'video-extend',
        '5 s 720p in, +5 s (default)',
        { image: clip },
        'video 30 s - 5 min',
      ],
      [
        'formant-voice',
        'text-to-speech',
        'one sentence',
        { prompt: 'The quick brown fox jumps over the lazy dog.' },
        'audio 3-15 s',
      ],
      ['procedural-music', 'text-to-music', 'defaults (60 s)', { prompt: 'upbeat pop song' }, 'audio 3-15 s'],
    ];
    const rows: string[] = [];
    for (const [model, task, what, params, spec] of jobs) {
      const t = performance.now();
      const g = await client.generate(model, task, params, { timeoutMs: 600_000, waitSeconds: 30 });
      const seconds = (performance.now() - t) / 1000;
      rows.push(`| ${task} | ${what} | ${g.status} | ${seconds.toFixed(2)} s | ${spec} |`);
      console.log(task, g.status, seconds.toFixed(2));
    }
    return rows;
  } finally {
    await files.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const srv = await startTestServer({});
  let imagesPerSecond: number;
  let emptyPerSecond: number;
  let latencyRows: string[];
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
    latencyRows = await latencies(client);
  } finally {
    await srv.stop();
  }

  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const section = [
    '## Worker throughput and submit-to-completed latency',
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
    '',
    'Submit to completed, one job per task through the same server (HTTP submit, input download from a local file ' +
      'server, engine, storage, status polled with `Prefer: wait`), one run each, beside the time the spec quotes for its hosted models:',
    '',
    '| Task | Request | Status | Submit to completed | Spec quotes |',
    '|---|---|---|---|---|',
    ...latencyRows,
  ].join('\n');
  console.log(section);
  writeSection('engines-throughput', section);
}

await main();
