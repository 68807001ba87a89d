/**
 * Charging a generation: takes the price from the balance and writes the ledger row. Must run inside
 * the transaction that also inserts the generation row and its job (routes/submitGeneration.ts,
 * routes/faceSwap.ts), so either all three happen or none does.
 */
import type { PoolClient } from '../db/pool.js';
import { appendLedger } from './ledger.js';

export class InsufficientCreditsError extends Error {
  override name = 'InsufficientCreditsError';
  constructor(
    readonly priceMicro: number,
    readonly balanceMicro: number,
  ) {
    super(
      `insufficient credits: this request costs $${(priceMicro / 1e6).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}` +
        ` and the balance is $${(balanceMicro / 1e6).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}; top up and retry`,
    );
  }
}

/** Debits `priceMicro`; throws InsufficientCreditsError (nothing written) when the balance is short. */
export async function chargeGeneration(
  tx: PoolClient,
  accountId: string,
  generationId: string,
  priceMicro: number,
  note: string,
): Promise<number> {
  const { rows } = await tx.query<{ balance_micro: number }>(
    `update accounts set balance_micro = balance_micro - $2
     where id = $1 and balance_micro >= $2 returning balance_micro`,
    [accountId, priceMicro],
  );
  if (rows.length === 0) {
    const cur = await tx.query<{ balance_micro: number }>(
      `select balance_micro from accounts where id = $1`,
      [accountId],
    );
    throw new InsufficientCreditsError(priceMicro, cur.rows[0]?.balance_micro ?? 0);
  }
  await appendLedger(tx, { accountId, kind: 'charge', amountMicro: -priceMicro, generationId, note });
  return rows[0]!.balance_micro;
}
