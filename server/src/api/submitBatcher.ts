/**
 * Group commit for submits (SQL function mediagen_submit_batch, migration 0002). A submit arriving
 * while no batch is running is sent at once, alone (no added latency); submits arriving while one runs
 * wait for it and go together in the next batch: one transaction, one add_jobs call, one NOTIFY.
 * Each submit is still authenticated, charged, recorded and enqueued in the same transaction, in
 * arrival order, so an account's balance is checked submit by submit.
 */
import type { Pool } from '../db/pool.js';
import type { AuthRow } from './auth.js';
import { JOB_MAX_ATTEMPTS, type NewGeneration } from './createGeneration.js';
import type { GenerationRow } from './generationView.js';

export type BatchItem = Omit<NewGeneration, 'accountId' | 'keyId' | 'idempotencyKey' | 'requestFingerprint'>;

export interface BatchResult {
  auth: AuthRow;
  /** Absent when the key was not usable (see auth.state) or the balance was short (402). */
  row?: GenerationRow;
}

interface Pending {
  item: BatchItem;
  keyHash: Buffer;
  resolve: (r: BatchResult) => void;
  reject: (err: unknown) => void;
}

/** Most submits in one transaction. */
export const MAX_BATCH = 100;

export class SubmitBatcher {
  private queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly pool: Pool,
    private readonly rate: { perSecond: number; burst: number } | null,
  ) {}

  submit(item: BatchItem, keyHash: Buffer): Promise<BatchResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, keyHash, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          await this.run(batch);
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async run(batch: Pending[]): Promise<void> {
    const items = batch.map(({ item, keyHash }) => ({
      hash: keyHash.toString('hex'),
      kind: item.kind,
      slug: item.modelSlug,
      name: item.modelName,
      task: item.task,
      type: item.type,
      params: item.params,
      price: item.priceMicro,
      note: `${item.modelSlug}/${item.task}`,
      job: item.job,
    }));
    const { rows } = await this.pool.query<AuthRow & Partial<GenerationRow> & { i: number }>(
      'select * from mediagen_submit_batch($1::jsonb, $2, $3, $4)',
      [JSON.stringify(items), this.rate?.perSecond ?? 0, this.rate?.burst ?? 0, JOB_MAX_ATTEMPTS],
    );
    const seen = new Set<number>();
    for (const r of rows) {
      const p = batch[r.i];
      if (!p) continue;
      seen.add(r.i);
      p.resolve({
        auth: { key_id: r.key_id, account_id: r.account_id, state: r.state, retry_after: r.retry_after },
        row: r.id ? (r as GenerationRow) : undefined,
      });
    }
    batch.forEach((p, i) => {
      if (!seen.has(i)) p.reject(new Error('submit batch returned no row for a request'));
    });
  }
}
