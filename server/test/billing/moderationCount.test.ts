/**
 * Moderation billing on a real PostgreSQL: a call is counted while it is classified and taken back
 * if it then fails (billing/moderationBatch.ts, billing/pendingModerationCount.ts). Whatever order
 * concurrent calls count, fail and uncount in, the account pays exactly the batches completed by its
 * successful calls, and the balance always equals the ledger.
 */
import { MODERATION_LIMITS, moderationChargeForCall } from '@mediagen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsufficientCreditsError } from '../../dist/billing/charge.js';
import { ledgerSum } from '../../dist/billing/ledger.js';
import { countModerationCall, uncountModerationCall } from '../../dist/billing/moderationBatch.js';
import { PendingModerationCount } from '../../dist/billing/pendingModerationCount.js';
import { createPool, type Pool } from '../../dist/db/pool.js';
import type { TestServer } from '../../dist/testing/index.js';
import { startServer } from '../helpers.js';

let srv: TestServer;
let pool: Pool;
beforeAll(async () => {
  srv = await startServer();
  pool = createPool(srv.databaseUrl, 12);
});
afterAll(async () => {
  await pool?.end();
  await srv?.stop();
});

async function account(accountId: string) {
  const { rows } = await pool.query<{ moderation_calls: number; balance_micro: number }>(
    `select moderation_calls, balance_micro from accounts where id = $1`,
    [accountId],
  );
  const ledger = await pool.query<{ kind: string; amount_micro: number; note: string | null }>(
    `select kind, amount_micro, note from ledger where account_id = $1 and kind <> 'top_up' order by id`,
    [accountId],
  );
  return { ...rows[0]!, ledger: ledger.rows, ledgerSum: await ledgerSum(pool, accountId) };
}

/** What an account that made `n` successful calls has paid for them, in micro-dollars. */
function owed(n: number): number {
  let sum = 0;
  for (let k = 1; k <= n; k++) sum += moderationChargeForCall(k);
  return sum;
}

async function countTo(accountId: string, n: number) {
  for (let i = 0; i < n; i++) await countModerationCall(pool, accountId);
}

describe("the SQL functions charge core's rule", () => {
  it('every call number from 1 to 45 pays moderationChargeForCall(n), counted up and taken back down', async () => {
    const { accountId } = await srv.createAccount(1);
    const n = MODERATION_LIMITS.freeCalls + 3 * MODERATION_LIMITS.batchSize + 5;
    for (let k = 1; k <= n; k++) {
      expect(await countModerationCall(pool, accountId)).toEqual({
        calls: k,
        chargedMicro: moderationChargeForCall(k),
      });
    }
    let now = await account(accountId);
    expect(now.balance_micro).toBe(1_000_000 - owed(n));
    expect(now.ledger.map((l) => l.note)).toEqual([
      'moderation calls 11-20',
      'moderation calls 21-30',
      'moderation calls 31-40',
    ]);
    for (let k = n; k >= 1; k--) {
      expect(await uncountModerationCall(pool, accountId)).toEqual({
        calls: k - 1,
        refundedMicro: moderationChargeForCall(k),
      });
    }
    now = await account(accountId);
    expect(now.moderation_calls).toBe(0);
    expect(now.balance_micro).toBe(1_000_000);
    expect(now.ledgerSum).toBe(now.balance_micro);
  });

  it('an account that does not exist is an error, not a silent zero', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    await expect(countModerationCall(pool, missing)).rejects.toThrow(/vanished/);
    await expect(uncountModerationCall(pool, missing)).rejects.toThrow(/no moderation call to take back/);
  });
});

describe('taking back the count of a call that failed', () => {
  it('a count that completed a batch is refunded with a ledger row, and the next call pays the batch again', async () => {
    const { accountId } = await srv.createAccount(1);
    await countTo(accountId, MODERATION_LIMITS.freeCalls + MODERATION_LIMITS.batchSize - 1); // 19
    const completing = await countModerationCall(pool, accountId);
    expect(completing.chargedMicro).toBe(MODERATION_LIMITS.batchPriceMicroUsd);
    expect(await uncountModerationCall(pool, accountId)).toEqual({ calls: 19, refundedMicro: 10_000 });
    let now = await account(accountId);
    expect(now.moderation_calls).toBe(19);
    expect(now.balance_micro).toBe(1_000_000);
    expect(now.ledger.map((l) => [l.kind, l.amount_micro])).toEqual([
      ['moderation_batch', -10_000],
      ['refund', 10_000],
    ]);
    expect(now.ledger[1]!.note).toMatch(/moderation calls 11-20/);
    expect(now.ledgerSum).toBe(now.balance_micro);

    expect((await countModerationCall(pool, accountId)).chargedMicro).toBe(10_000);
    now = await account(accountId);
    expect(now.moderation_calls).toBe(20);
    expect(now.balance_micro).toBe(1_000_000 - owed(20));
    expect(now.ledgerSum).toBe(now.balance_micro);
  });

  it('a count inside a batch is taken back without touching the balance', async () => {
    const { accountId } = await srv.createAccount(1);
    await countTo(accountId, 3);
    expect(await uncountModerationCall(pool, accountId)).toEqual({ calls: 2, refundedMicro: 0 });
    const now = await account(accountId);
    expect(now.moderation_calls).toBe(2);
    expect(now.balance_micro).toBe(1_000_000);
    expect(now.ledger).toEqual([]);
  });

  it('never takes a count below zero', async () => {
    const { accountId } = await srv.createAccount(1);
    await expect(uncountModerationCall(pool, accountId)).rejects.toThrow(/no moderation call to take back/);
    expect((await account(accountId)).moderation_calls).toBe(0);
  });

  it('a call completing a batch that fails after a later call counted: no refund, the batch stays paid', async () => {
    const { accountId } = await srv.createAccount(1);
    await countTo(accountId, 19);
    expect((await countModerationCall(pool, accountId)).chargedMicro).toBe(10_000); // call A: 20
    expect((await countModerationCall(pool, accountId)).chargedMicro).toBe(0); // call B: 21
    await uncountModerationCall(pool, accountId); // A failed: 20 successful calls remain
    const now = await account(accountId);
    expect(now.moderation_calls).toBe(20);
    expect(now.balance_micro).toBe(1_000_000 - owed(20));
    expect(now.ledger.filter((l) => l.kind === 'refund')).toEqual([]);
  });

  it('60 concurrent calls of which every third fails after counting: the count and the money match the successes', async () => {
    const { accountId } = await srv.createAccount(1);
    const calls = Array.from({ length: 60 }, async (_, i) => {
      const count = new PendingModerationCount(pool, accountId);
      count.start();
      // The classification's time, different for every call so counts and take-backs interleave.
      await new Promise((r) => setTimeout(r, (i * 7) % 23));
      if (i % 3 === 2) await count.cancel();
      else await count.confirm();
    });
    await Promise.all(calls);
    const now = await account(accountId);
    expect(now.moderation_calls).toBe(40);
    expect(now.balance_micro).toBe(1_000_000 - owed(40));
    expect(now.ledgerSum).toBe(now.balance_micro);
  });
});

describe('PendingModerationCount', () => {
  it('cancel() before start() changes nothing; confirm() alone counts the call', async () => {
    const { accountId } = await srv.createAccount(1);
    await new PendingModerationCount(pool, accountId).cancel();
    expect((await account(accountId)).moderation_calls).toBe(0);
    expect((await new PendingModerationCount(pool, accountId).confirm()).calls).toBe(1);
    expect((await account(accountId)).moderation_calls).toBe(1);
  });

  it('a batch that cannot be paid: confirm() rejects with InsufficientCreditsError, nothing is counted, and cancel() takes nothing back', async () => {
    const { accountId } = await srv.createAccount(0);
    await countTo(accountId, 19);
    const refused = new PendingModerationCount(pool, accountId);
    refused.start();
    await expect(refused.confirm()).rejects.toBeInstanceOf(InsufficientCreditsError);
    const failed = new PendingModerationCount(pool, accountId);
    failed.start();
    await failed.cancel();
    const now = await account(accountId);
    expect(now.moderation_calls).toBe(19);
    expect(now.balance_micro).toBe(0);
    expect(now.ledger).toEqual([]);
  });
});
