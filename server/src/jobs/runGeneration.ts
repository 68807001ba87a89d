/**
 * The part every generation job shares: load the row, give up (failed + refunded) after too many
 * attempts, run the work in a private directory, store the outputs, complete; or, on a failure the
 * client should hear about, fail and refund in one transaction. Unexpected errors are thrown so that
 * graphile-worker retries the job; so is an abort caused by shutdown (the job is handed back).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { JobHelpers } from 'graphile-worker';
import type { StoredOutput } from '../api/generationView.js';
import { failAndRefund } from '../billing/refund.js';
import type { AppContext } from '../context.js';
import { transaction } from '../db/pool.js';
import { EngineUnavailableError } from '../engines/registry.js';
import { EngineError, type EngineOutput } from '../engines/types.js';
import { MediaFetchError } from '../media/fetch.js';
import { completeGeneration } from './finish.js';

/** After this many attempts a generation is failed and refunded instead of retried again. */
export const MAX_TRIES = 5;

export interface GenerationJobRow {
  id: string;
  account_id: string;
  kind: 'generation' | 'face-swap';
  model_slug: string;
  task: string;
  type: 'image' | 'video' | 'audio';
  status: string;
  params: Record<string, unknown>;
}

/** A failure the client is told about (the generation fails and is refunded, no retry). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

function isPermanent(err: unknown): boolean {
  return (
    err instanceof EngineError ||
    err instanceof MediaFetchError ||
    err instanceof EngineUnavailableError ||
    err instanceof PermanentJobError
  );
}

export function seedFor(row: GenerationJobRow): number {
  const given = row.params.seed;
  if (typeof given === 'number') return given;
  return createHash('sha256').update(row.id).digest().readUInt32BE(0) & 0x7fffffff;
}

export async function runGenerationJob(
  ctx: AppContext,
  payload: unknown,
  helpers: JobHelpers,
  work: (row: GenerationJobRow, workDir: string, signal: AbortSignal) => Promise<EngineOutput>,
): Promise<void> {
  const id = (payload as { generation_id?: string } | null)?.generation_id;
  if (!id) throw new Error('job payload has no generation_id');
  const t0 = performance.now();
  const { rows } = await ctx.pool.query<GenerationJobRow & { age_ms: number }>(
    `update generations set attempts = attempts + 1 where id = $1
     returning id, account_id, kind, model_slug, task, type, status, params,
       extract(epoch from clock_timestamp() - created_at) * 1000 as age_ms`,
    [id],
  );
  const row = rows[0];
  if (!row || row.status !== 'processing') return; // already final: nothing to do, never twice
  const fail = (message: string) => transaction(ctx.pool, (tx) => failAndRefund(tx, id, message));
  if (helpers.job.attempts > MAX_TRIES) {
    await fail(`generation gave up after ${MAX_TRIES} attempts`);
    return;
  }
  const workDir = await mkdtemp(join(tmpdir(), `mediagen-job-`));
  const signal = helpers.abortSignal ?? new AbortController().signal;
  try {
    const t1 = performance.now();
    const output = await work(row, workDir, signal);
    const t2 = performance.now();
    const stored = await storeOutputs(ctx, row, workDir, output);
    await completeGeneration(ctx.pool, id, stored);
    ctx.log.debug(
      `generation ${id}: started ${Number(row.age_ms).toFixed(1)} ms after submit, ` +
        `load ${(t1 - t0).toFixed(1)} ms, work ${(t2 - t1).toFixed(1)} ms, store+complete ${(performance.now() - t2).toFixed(1)} ms`,
    );
  } catch (err) {
    if (signal.aborted) throw err; // shutting down: hand the job back, it runs again
    if (isPermanent(err)) {
      await fail((err as Error).message);
      return;
    }
    if (helpers.job.attempts >= MAX_TRIES) {
      ctx.log.error(`generation ${id} failed on its last attempt: ${(err as Error).stack ?? String(err)}`);
      // The error itself stays in the log: an unexpected one names temp paths and library internals.
      await fail(
        `generation failed after ${MAX_TRIES} attempts because of an internal error; the operator's log has the details (generation ${id})`,
      );
      return;
    }
    ctx.log.warn(
      `generation ${id} attempt ${helpers.job.attempts} failed, will retry: ${(err as Error).message}`,
    );
    throw err;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function storeOutputs(
  ctx: AppContext,
  row: GenerationJobRow,
  workDir: string,
  output: EngineOutput,
): Promise<StoredOutput[]> {
  if (output.type !== row.type) {
    throw new PermanentJobError(`the engine produced ${output.type} where ${row.type} was expected`);
  }
  if (!output.files || output.files.length === 0)
    throw new PermanentJobError('the engine produced no output');
  const stored: StoredOutput[] = [];
  const root = resolve(workDir) + sep;
  for (const [i, file] of output.files.entries()) {
    const path = resolve(file.path);
    if (!path.startsWith(root)) throw new Error(`engine wrote outside its work directory: ${file.path}`);
    const s = await stat(path);
    if (!s.isFile() || s.size === 0) throw new PermanentJobError('the engine produced an empty file');
    const ext = file.ext.replace(/^\./, '').toLowerCase();
    if (!/^[a-z0-9]{2,5}$/.test(ext)) throw new Error(`bad output extension "${file.ext}"`);
    const key = `generations/${row.id}/${row.id}${output.files.length > 1 ? `-${i + 1}` : ''}.${ext}`;
    await ctx.storage.putFile(key, path);
    stored.push({ key, mime: file.mime, ext });
  }
  return stored;
}
