/**
 * The write behind face swap and idempotent submits: charge + generation row + ledger row +
 * graphile-worker job, all in ONE transaction (a single SQL statement: data-modifying CTEs run
 * atomically); if the balance is short nothing is written. Plain submits go through
 * api/submitBatcher.ts, which does the same for several submits in one transaction.
 * With an Idempotency-Key (extension) the key row is locked, compared and written in the same
 * transaction: the same key and body within 24 h return the first generation and charge once; the
 * same key with another body is refused with 400.
 */
import { createHash } from 'node:crypto';
import { InsufficientCreditsError } from '../billing/charge.js';
import { transaction, type Pool, type Queryable } from '../db/pool.js';
import { ApiError } from './errors.js';
import { GENERATION_COLUMNS, type GenerationRow } from './generationView.js';

/** Attempts graphile-worker gives a job (jobs/tasks give up and refund after MAX_TRIES, see there). */
export const JOB_MAX_ATTEMPTS = 8;
export const IDEMPOTENCY_WINDOW_HOURS = 24;

export interface NewGeneration {
  accountId: string;
  keyId: string;
  kind: 'generation' | 'face-swap';
  modelSlug: string;
  modelName: string;
  task: string;
  type: 'image' | 'video' | 'audio';
  params: Record<string, unknown>;
  priceMicro: number;
  /** graphile-worker task identifier: 'generate' or 'face_swap'. */
  job: string;
  idempotencyKey?: string;
  /** What the Idempotency-Key binds to: method, path and body. */
  requestFingerprint?: unknown;
}

const INSERT_SQL = `
with charged as (
  update accounts set balance_micro = balance_micro - $9::bigint
  where id = $1 and balance_micro >= $9::bigint returning id
), gen as (
  insert into generations (account_id, key_id, kind, model_slug, model_name, task, type, status, params, price_micro)
  select $1, $2, $3, $4, $5, $6, $7, 'processing', $8::jsonb, $9::bigint from charged
  returning ${GENERATION_COLUMNS}
), led as (
  insert into ledger (account_id, kind, amount_micro, generation_id, note)
  select $1, 'charge', -$9::bigint, gen.id, $10 from gen
), job as (
  select graphile_worker.add_job($11, json_build_object('generation_id', gen.id), max_attempts => ${JOB_MAX_ATTEMPTS}) as j
  from gen
)
select gen.*, (select count(*) from job)::int as jobs from gen`;

async function insertCharged(db: Queryable, g: NewGeneration): Promise<GenerationRow> {
  const { rows } = await db.query<GenerationRow & { jobs: number }>(INSERT_SQL, [
    g.accountId,
    g.keyId,
    g.kind,
    g.modelSlug,
    g.modelName,
    g.task,
    g.type,
    JSON.stringify(g.params),
    g.priceMicro,
    `${g.modelSlug}/${g.task}`,
    g.job,
  ]);
  const row = rows[0];
  if (!row) {
    const cur = await db.query<{ balance_micro: number }>(
      `select balance_micro from accounts where id = $1`,
      [g.accountId],
    );
    throw new InsufficientCreditsError(g.priceMicro, cur.rows[0]?.balance_micro ?? 0);
  }
  if (row.jobs !== 1) throw new Error(`expected one job for generation ${row.id}, got ${row.jobs}`);
  return row;
}

/** The 402 error for an account whose balance cannot pay `priceMicro`. */
export async function insufficientCredits(
  db: Queryable,
  accountId: string,
  priceMicro: number,
): Promise<ApiError> {
  const cur = await db.query<{ balance_micro: number }>(`select balance_micro from accounts where id = $1`, [
    accountId,
  ]);
  return new ApiError(
    'PAYMENT_REQUIRED',
    new InsufficientCreditsError(priceMicro, cur.rows[0]?.balance_micro ?? 0).message,
  );
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Returns the generation and whether it was created by this call (false: replayed for the same key). */
export async function createGeneration(
  pool: Pool,
  g: NewGeneration,
): Promise<{ row: GenerationRow; created: boolean }> {
  if (g.idempotencyKey === undefined) {
    try {
      return { row: await insertCharged(pool, g), created: true };
    } catch (err) {
      throw toApiError(err);
    }
  }
  const key = g.idempotencyKey;
  const hash = fingerprint(g.requestFingerprint ?? g.params);
  try {
    return await transaction(pool, async (tx) => {
      await tx.query(`select pg_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))`, [
        g.accountId,
        key,
      ]);
      const { rows } = await tx.query<{ request_hash: string; generation_id: string; fresh: boolean }>(
        `select request_hash, generation_id, created_at > now() - make_interval(hours => $3) as fresh
         from idempotency_keys where account_id = $1 and key = $2`,
        [g.accountId, key, IDEMPOTENCY_WINDOW_HOURS],
      );
      const existing = rows[0];
      if (existing?.fresh) {
        if (existing.request_hash !== hash) {
          throw new ApiError(
            'VALIDATION_ERROR',
            `Idempotency-Key "${key}" was already used with a different request in the last ${IDEMPOTENCY_WINDOW_HOURS} hours; use a new key for a new request`,
          );
        }
        const prev = await tx.query<GenerationRow>(
          `select ${GENERATION_COLUMNS} from generations where id = $1`,
          [existing.generation_id],
        );
        return { row: prev.rows[0]!, created: false };
      }
      if (existing)
        await tx.query(`delete from idempotency_keys where account_id = $1 and key = $2`, [g.accountId, key]);
      const row = await insertCharged(tx, g);
      await tx.query(
        `insert into idempotency_keys (account_id, key, request_hash, generation_id) values ($1, $2, $3, $4)`,
        [g.accountId, key, hash, row.id],
      );
      return { row, created: true };
    });
  } catch (err) {
    throw toApiError(err);
  }
}

function toApiError(err: unknown): unknown {
  if (err instanceof InsufficientCreditsError) return new ApiError('PAYMENT_REQUIRED', err.message);
  return err;
}
