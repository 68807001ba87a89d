/**
 * Time from submit to "completed" as seen by a client, for a text-to-image (1k PNG), (a) with the
 * `Prefer: wait` extension (target: within 50 ms of the engine's own time) and (b) with plain polling
 * every 3 s (the spec's recommended interval for images). The engine's own time is measured in the
 * same run by calling the engine directly, in this process, with the same parameters.
 * Run: `npm run bench -- server-latency`. Writes the "server-latency" section of docs/benchmarks.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TASK_PARAMS } from '../packages/core/dist/index.js';
import type { GenerationEngine } from '../server/src/engines/types.js';
import { startTestServer } from '../server/dist/testing/index.js';
import { createRequire } from 'node:module';
import type PgModule from 'pg';
import { machine, writeSection } from './lib/benchDoc.js';

const require = createRequire(new URL('../server/package.json', import.meta.url));

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const POLL_RUNS = Math.max(3, Math.round(RUNS / 2));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function engineTimes(prompts: string[]): Promise<number[]> {
  const { textToImageEngine } = (await import('../server/dist/engines/image/textToImage.js')) as {
    textToImageEngine: GenerationEngine;
  };
  const times: number[] = [];
  for (const prompt of prompts) {
    const workDir = await mkdtemp(join(tmpdir(), 'bench-engine-'));
    const params = TASK_PARAMS['text-to-image'].parse({ prompt });
    const t0 = performance.now();
    await textToImageEngine.run({
      task: 'text-to-image',
      params,
      media: [],
      workDir,
      seed: 1,
      signal: new AbortController().signal,
    });
    times.push(performance.now() - t0);
    await rm(workDir, { recursive: true, force: true });
  }
  return times;
}

async function main() {
  const srv = await startTestServer({ env: { MEDIAGEN_RATE_LIMIT: 'off', MEDIAGEN_LOG_LEVEL: 'error' } });
  const headers = { authorization: `Bearer ${srv.apiKey}`, 'content-type': 'application/json' };
  const submit = async (prompt: string) => {
    const res = await fetch(`${srv.baseUrl}/scene-painter/text-to-image`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt }),
    });
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  const status = async (id: string, wait?: number) => {
    const res = await fetch(`${srv.baseUrl}/status/${id}`, {
      headers: wait ? { ...headers, prefer: `wait=${wait}` } : headers,
    });
    return ((await res.json()) as { data: { status: string } }).data.status;
  };
  try {
    const prompts = Array.from({ length: RUNS }, (_, i) => `a lighthouse on a cliff at dusk, run ${i}`);
    await engineTimes(['warm-up']);
    const engine = await engineTimes(prompts);

    const waitTimes: number[] = [];
    const waitIds: string[] = [];
    await submit('warm-up'); // first job loads the engine in the worker
    for (const prompt of prompts) {
      const t0 = performance.now();
      const id = await submit(prompt);
      while (!['completed', 'failed'].includes(await status(id, 60)));
      waitTimes.push(performance.now() - t0);
      waitIds.push(id);
    }
    // Server side: from the row's insert to its completion (the job: pickup, row update, engine, storage, update).
    const pg = require('pg') as typeof PgModule;
    const db = new pg.Client({ connectionString: srv.databaseUrl });
    await db.connect();
    const server = (
      await db.query<{ ms: number }>(
        `select extract(epoch from finished_at - created_at) * 1000 as ms from generations where id = any($1)`,
        [waitIds],
      )
    ).rows.map((r) => Number(r.ms));
    await db.end();
    const pollTimes: number[] = [];
    for (const prompt of prompts.slice(0, POLL_RUNS)) {
      const t0 = performance.now();
      const id = await submit(prompt);
      for (;;) {
        await new Promise((r) => setTimeout(r, 3000));
        if (['completed', 'failed'].includes(await status(id))) break;
      }
      pollTimes.push(performance.now() - t0);
    }
    const e = median(engine);
    const w = median(waitTimes);
    const sv = median(server);
    const p = median(pollTimes);
    const md = `## Server latency: submit to completed (text-to-image, 1k PNG)

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}. Medians of ${RUNS} sequential generations (${POLL_RUNS} for polling), one server process (API + worker) on the embedded PostgreSQL; the engine's own time is the same engine called directly in the bench process with the same parameters. The machine is shared: compare within the table.

| Client strategy | Submit to completed (median) | Engine alone (same run) | Overhead | Target |
|---|---|---|---|---|
| \`Prefer: wait=60\` on GET /status (LISTEN/NOTIFY) | ${w.toFixed(1)} ms | ${e.toFixed(1)} ms | ${(w - e).toFixed(1)} ms (${(w / e).toFixed(2)}x) | within 50 ms of the engine |
| (server side of the same runs: row inserted to row completed) | ${sv.toFixed(1)} ms | ${e.toFixed(1)} ms | ${(sv - e).toFixed(1)} ms | |
| polling GET /status every 3 s | ${p.toFixed(1)} ms | ${e.toFixed(1)} ms | ${(p - e).toFixed(1)} ms (${(p / e).toFixed(2)}x) | (for comparison) |
`;
    console.log(md);
    writeSection('server-latency', md);
  } finally {
    await srv.stop();
  }
}

await main();
