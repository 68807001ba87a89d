/**
 * The job runner: graphile-worker 0.16.6 (pinned: 0.17/0.18 leave a job locked for 4 hours when it
 * ends during shutdown unless completeJobBatchDelay/failJobBatchDelay are 0; 0.16.6 has neither the
 * batching nor the bug, so there is nothing to set). Signals are handled by main.ts, which calls
 * stop(): running jobs get gracefulShutdownAbortTimeout to finish, then their AbortSignal fires, the
 * job throws and graphile-worker hands it back (fail_job), so it runs again a few seconds later.
 */
import { EventEmitter } from 'node:events';
import { parseCronItems, run, type Runner, type WorkerEvents } from 'graphile-worker';
import type { TaskName } from '@mediagen/core';
import { engineIdFor } from '../catalog/catalog.js';
import type { AppContext } from '../context.js';
import { loadGenerationEngines } from '../engines/registry.js';
import { quietLogger } from '../db/migrate.js';
import { WorkerRegistry } from './recovery.js';
import { faceSwapTask } from './tasks/faceSwap.js';
import { generateTask } from './tasks/generate.js';
import { PURGE_SCHEDULE, PURGE_TASK, purgeExpiredOutputsTask } from './tasks/purgeExpiredOutputs.js';

export interface WorkerHandle {
  runner: Runner;
  stop(): Promise<void>;
}

/** How long running jobs may go on after SIGTERM before they are aborted and handed back. */
export const SHUTDOWN_GRACE_MS = 5_000;

/** Logs every catalog task whose engine is not installed (its jobs would fail and be refunded). */
async function checkCatalogEngines(ctx: AppContext): Promise<void> {
  const engines = await loadGenerationEngines();
  for (const model of ctx.catalog.models) {
    for (const task of Object.keys(model.tasks) as TaskName[]) {
      const id = engineIdFor(model, task);
      const engine = engines.get(id);
      if (!engine || !engine.tasks.includes(task)) {
        ctx.log.warn(
          `catalog: ${model.slug}/${task} names engine "${id}", which is not installed or does not do ${task}`,
        );
      }
    }
  }
}

export async function startWorker(ctx: AppContext): Promise<WorkerHandle> {
  await checkCatalogEngines(ctx);
  const registry = new WorkerRegistry(ctx.pool, ctx.log);
  await registry.start();
  // Our own emitter, listened to before run() creates the workers, so no worker id is missed.
  const events = new EventEmitter() as WorkerEvents;
  registry.watch(events);
  const runner = await run({
    events,
    pgPool: ctx.pool,
    concurrency: ctx.config.workerConcurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: quietLogger(),
    gracefulShutdownAbortTimeout: SHUTDOWN_GRACE_MS,
    taskList: {
      generate: generateTask(ctx),
      face_swap: faceSwapTask(ctx),
      [PURGE_TASK]: purgeExpiredOutputsTask(ctx),
    },
    // graphile-worker's cron: every process runs the scheduler, its known_crontabs table lets one of
    // them add the job per tick; the job key keeps at most one pending purge job (no backfill).
    parsedCronItems: parseCronItems([
      {
        task: PURGE_TASK,
        match: PURGE_SCHEDULE,
        identifier: PURGE_TASK,
        options: { backfillPeriod: 0, maxAttempts: 3, jobKey: PURGE_TASK, jobKeyMode: 'replace' },
      },
    ]),
  });
  let stopped = false;
  return {
    runner,
    async stop() {
      if (stopped) return;
      stopped = true;
      await runner.stop().catch((err: Error) => ctx.log.warn(`worker stop: ${err.message}`));
      await registry.stop();
    },
  };
}
