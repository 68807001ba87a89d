/**
 * Job `purge_expired_outputs`: deletes the stored files whose signed URLs have expired, so storage does
 * not grow forever. Output URLs expire OUTPUT_URL_VALIDITY_SECONDS (7 days) after the generation; a file
 * is deleted once it is older than that plus MEDIAGEN_OUTPUT_RETENTION_GRACE_HOURS (default 24 h).
 *
 * - Generation outputs: the generation row is kept and marked (`outputs_purged_at`), so GET /status
 *   still answers; it then shows `output_url: null` (see docs/api-extensions.md).
 * - Face crops of POST /face-swap/detect: recorded in `face_crops`; the row goes with the file.
 *
 * Scheduled hourly by graphile-worker's cron (worker.ts): its `known_crontabs` table makes one process
 * schedule each tick however many worker processes run. Safe even if two runs overlap: each batch is
 * claimed with FOR UPDATE SKIP LOCKED, its files deleted and the rows marked in the same transaction,
 * so a crash half-way rolls back and the next run deletes again (deleting an absent file is a no-op).
 */
import { OUTPUT_URL_VALIDITY_SECONDS } from '@mediagen/core';
import type { Task } from 'graphile-worker';
import type { StoredOutput } from '../../api/generationView.js';
import type { AppContext } from '../../context.js';
import { transaction } from '../../db/pool.js';

export const PURGE_TASK = 'purge_expired_outputs';
/** Every hour, at minute 17 (off the hour, when other cron jobs tend to run). */
export const PURGE_SCHEDULE = '17 * * * *';
/** Rows claimed per transaction: bounds how long a transaction stays open while files are deleted. */
export const PURGE_BATCH = 100;

export interface PurgeResult {
  generations: number;
  faceCrops: number;
}

/** Age in seconds after which a stored file is deleted. */
export function retentionSeconds(graceHours: number): number {
  return OUTPUT_URL_VALIDITY_SECONDS + Math.round(graceHours * 3600);
}

export async function purgeExpiredOutputs(ctx: AppContext, signal?: AbortSignal): Promise<PurgeResult> {
  const age = retentionSeconds(ctx.config.outputRetentionGraceHours);
  const result: PurgeResult = { generations: 0, faceCrops: 0 };
  for (;;) {
    if (signal?.aborted) return result;
    const n = await transaction(ctx.pool, async (tx) => {
      const { rows } = await tx.query<{ id: string; outputs: StoredOutput[] }>(
        `select id, outputs from generations
         where outputs is not null and outputs_purged_at is null
           and created_at < now() - make_interval(secs => $1)
         order by created_at limit $2
         for update skip locked`,
        [age, PURGE_BATCH],
      );
      for (const row of rows) for (const output of row.outputs) await ctx.storage.delete(output.key);
      if (rows.length > 0) {
        await tx.query(`update generations set outputs_purged_at = now() where id = any($1::uuid[])`, [
          rows.map((r) => r.id),
        ]);
      }
      return rows.length;
    });
    result.generations += n;
    if (n < PURGE_BATCH) break;
  }
  for (;;) {
    if (signal?.aborted) return result;
    const n = await transaction(ctx.pool, async (tx) => {
      const { rows } = await tx.query<{ key: string }>(
        `select key from face_crops where created_at < now() - make_interval(secs => $1)
         order by created_at limit $2
         for update skip locked`,
        [age, PURGE_BATCH],
      );
      for (const row of rows) await ctx.storage.delete(row.key);
      if (rows.length > 0) {
        await tx.query(`delete from face_crops where key = any($1::text[])`, [rows.map((r) => r.key)]);
      }
      return rows.length;
    });
    result.faceCrops += n;
    if (n < PURGE_BATCH) break;
  }
  return result;
}

export function purgeExpiredOutputsTask(ctx: AppContext): Task {
  return async (_payload, helpers) => {
    const { generations, faceCrops } = await purgeExpiredOutputs(ctx, helpers.abortSignal);
    if (generations > 0 || faceCrops > 0) {
      ctx.log.info(
        `purged the expired outputs of ${generations} generation(s) and ${faceCrops} face crop(s)`,
      );
    }
  };
}
