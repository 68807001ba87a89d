/**
 * Recovering jobs from worker processes that died without a goodbye (SIGKILL, OOM, lost machine).
 * graphile-worker 0.16 only unlocks such jobs after 4 hours. Each worker process records the
 * graphile-worker worker ids it runs in `worker_processes` and beats every few seconds; every process
 * periodically removes processes silent for STALE_SECONDS and calls graphile-worker's own
 * `force_unlock_workers` for their worker ids, so their jobs run again within about half a minute.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { WorkerEvents } from 'graphile-worker';
import type { Pool } from '../db/pool.js';
import type { Logger } from '../log.js';

export const HEARTBEAT_MS = 3_000;
export const STALE_SECONDS = 15;

export class WorkerRegistry {
  readonly processId = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly log: Logger,
    private readonly staleSeconds = STALE_SECONDS,
  ) {}

  async start(): Promise<void> {
    await this.pool.query(`insert into worker_processes (id) values ($1) on conflict (id) do nothing`, [
      this.processId,
    ]);
    await this.sweep();
    this.timer = setInterval(() => {
      void this.beat().catch((err: Error) => this.log.warn(`worker heartbeat failed: ${err.message}`));
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Call for each graphile-worker worker this process starts (event `worker:create`). */
  async addWorker(workerId: string): Promise<void> {
    await this.pool.query(
      `update worker_processes set worker_ids = array_append(worker_ids, $2), last_seen = now() where id = $1`,
      [this.processId, workerId],
    );
  }

  watch(events: WorkerEvents): void {
    events.on('worker:create', ({ worker }) => {
      void this.addWorker(worker.workerId).catch((err: Error) =>
        this.log.warn(`worker registry: ${err.message}`),
      );
    });
  }

  private async beat(): Promise<void> {
    const { rowCount } = await this.pool.query(
      `update worker_processes set last_seen = now() where id = $1`,
      [this.processId],
    );
    if (!rowCount) {
      // We were declared dead (e.g. a long pause): our jobs may have been unlocked; re-register.
      this.log.warn('this worker process was presumed dead by a peer; re-registering');
      await this.pool.query(`insert into worker_processes (id) values ($1) on conflict (id) do nothing`, [
        this.processId,
      ]);
    }
    await this.sweep();
  }

  /** Unlocks the jobs of every process silent for longer than STALE_SECONDS. Returns how many processes. */
  async sweep(): Promise<number> {
    const { rows } = await this.pool.query<{ dead: number }>(
      `with dead as (
         delete from worker_processes where last_seen < now() - make_interval(secs => $1) returning worker_ids
       ), ids as (
         select coalesce(array_agg(w), '{}') as ids from dead, unnest(dead.worker_ids) as w
       )
       select (select count(*) from dead)::int as dead,
              graphile_worker.force_unlock_workers((select ids from ids)) as unlocked`,
      [this.staleSeconds],
    );
    const dead = rows[0]?.dead ?? 0;
    if (dead > 0)
      this.log.warn(`unlocked the jobs of ${dead} worker process(es) that stopped without shutting down`);
    return dead;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.pool
      .query(`delete from worker_processes where id = $1`, [this.processId])
      .catch(() => undefined);
  }
}
