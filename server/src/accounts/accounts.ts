/** Accounts and their credits: the functions behind the admin API and the admin CLI. */
import { appendLedger, ledgerOf, type LedgerRow } from '../billing/ledger.js';
import { microToUsd, usdToMicro } from '../billing/pricing.js';
import { transaction, type Pool, type Queryable } from '../db/pool.js';

export interface AccountView {
  account_id: string;
  balance_usd: number;
  moderation_calls: number;
  created_at: string;
  keys: Array<{
    key_id: string;
    prefix: string;
    state: 'active' | 'disabled' | 'expired';
    expires_at: string | null;
  }>;
  ledger: Array<{
    id: number;
    kind: string;
    amount_usd: number;
    generation_id: string | null;
    note: string | null;
    created_at: string;
  }>;
}

export async function createAccount(
  pool: Pool,
  balanceUsd: number,
): Promise<{ accountId: string; balanceUsd: number }> {
  return transaction(pool, async (tx) => {
    const micro = usdToMicro(balanceUsd);
    const { rows } = await tx.query<{ id: string }>(
      `insert into accounts (balance_micro) values ($1) returning id`,
      [micro],
    );
    const accountId = rows[0]!.id;
    if (micro > 0)
      await appendLedger(tx, { accountId, kind: 'top_up', amountMicro: micro, note: 'opening balance' });
    return { accountId, balanceUsd: microToUsd(micro) };
  });
}

/** Adds credits; returns the new balance, or null when the account does not exist. */
export async function addCredits(
  pool: Pool,
  accountId: string,
  amountUsd: number,
  note = 'top-up',
): Promise<number | null> {
  return transaction(pool, async (tx) => {
    const micro = usdToMicro(amountUsd);
    const { rows } = await tx.query<{ balance_micro: number }>(
      `update accounts set balance_micro = balance_micro + $2 where id = $1 returning balance_micro`,
      [accountId, micro],
    );
    if (!rows[0]) return null;
    await appendLedger(tx, { accountId, kind: 'top_up', amountMicro: micro, note });
    return microToUsd(rows[0].balance_micro);
  });
}

export async function accountExists(db: Queryable, accountId: string): Promise<boolean> {
  const { rows } = await db.query(`select 1 from accounts where id = $1`, [accountId]);
  return rows.length > 0;
}

export async function getAccount(db: Queryable, accountId: string): Promise<AccountView | null> {
  const { rows } = await db.query<{
    id: string;
    balance_micro: number;
    moderation_calls: number;
    created_at: Date;
  }>(`select id, balance_micro, moderation_calls, created_at from accounts where id = $1`, [accountId]);
  const a = rows[0];
  if (!a) return null;
  const keys = await db.query<{
    id: string;
    key_prefix: string;
    disabled_at: Date | null;
    expires_at: Date | null;
  }>(
    `select id, key_prefix, disabled_at, expires_at from api_keys where account_id = $1 order by created_at`,
    [accountId],
  );
  const ledger: LedgerRow[] = await ledgerOf(db, accountId, 200);
  return {
    account_id: a.id,
    balance_usd: microToUsd(a.balance_micro),
    moderation_calls: a.moderation_calls,
    created_at: a.created_at.toISOString(),
    keys: keys.rows.map((k) => ({
      key_id: k.id,
      prefix: k.key_prefix,
      state: k.disabled_at ? 'disabled' : k.expires_at && k.expires_at <= new Date() ? 'expired' : 'active',
      expires_at: k.expires_at?.toISOString() ?? null,
    })),
    ledger: ledger.map((l) => ({
      id: l.id,
      kind: l.kind,
      amount_usd: microToUsd(l.amount_micro),
      generation_id: l.generation_id,
      note: l.note,
      created_at: l.created_at.toISOString(),
    })),
  };
}
