/**
 * The append-only ledger. Every balance change is one row here written in the same transaction as
 * the change to accounts.balance_micro, so the balance always equals the sum of the ledger.
 */
import type { Queryable } from '../db/pool.js';

export type LedgerKind = 'top_up' | 'charge' | 'refund' | 'moderation_batch';

export interface LedgerRow {
  id: number;
  kind: LedgerKind;
  amount_micro: number;
  generation_id: string | null;
  note: string | null;
  created_at: Date;
}

export interface LedgerEntry {
  accountId: string;
  kind: LedgerKind;
  amountMicro: number;
  generationId?: string | null;
  note?: string;
}

export async function appendLedger(db: Queryable, row: LedgerEntry): Promise<void> {
  await db.query(
    `insert into ledger (account_id, kind, amount_micro, generation_id, note) values ($1, $2, $3, $4, $5)`,
    [row.accountId, row.kind, row.amountMicro, row.generationId ?? null, row.note ?? null],
  );
}

/**
 * Moves an account's balance by `amountMicro` (negative: a debit) and writes its ledger row. Call it
 * inside the transaction that causes the change, after whatever check the change needs.
 */
export async function changeBalance(tx: Queryable, row: LedgerEntry): Promise<void> {
  await tx.query(`update accounts set balance_micro = balance_micro + $2 where id = $1`, [
    row.accountId,
    row.amountMicro,
  ]);
  await appendLedger(tx, row);
}

export async function ledgerOf(db: Queryable, accountId: string, limit = 100): Promise<LedgerRow[]> {
  const { rows } = await db.query<LedgerRow>(
    `select id, kind, amount_micro, generation_id, note, created_at from ledger
     where account_id = $1 order by id desc limit $2`,
    [accountId, limit],
  );
  return rows;
}

/** The ledger's sum for an account (equals accounts.balance_micro; checked by tests). */
export async function ledgerSum(db: Queryable, accountId: string): Promise<number> {
  const { rows } = await db.query<{ sum: number }>(
    `select coalesce(sum(amount_micro), 0)::bigint as sum from ledger where account_id = $1`,
    [accountId],
  );
  return rows[0]!.sum;
}
