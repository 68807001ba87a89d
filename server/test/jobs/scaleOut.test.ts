/**
 * Scale-out: two API processes and two worker processes on one database take 200 submits spread
 * across both APIs; every generation completes exactly once and is charged exactly once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../dist/testing/index.js';
import { accountView, call, startServer, waitDone } from '../helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer({ api: 2, workers: 2 });
});
afterAll(() => srv?.stop());

describe('2 API + 2 worker processes', () => {
  it('200 submits across both APIs: each completes once, charged once', async () => {
    const apis = srv.processes.filter((p) => p.baseUrl);
    expect(apis).toHaveLength(2);
    const a = await srv.createAccount(10);
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call({ baseUrl: apis[(batch * 20 + i) % 2]!.baseUrl! }, 'POST', '/scene-painter/text-to-image', {
            key: a.apiKey,
            body: { prompt: `scale out ${batch}-${i}`, output_format: 'jpeg' },
          }),
        ),
      );
      for (const r of results) {
        expect(r.status, r.text).toBe(202);
        ids.push(r.body.data.id);
      }
    }
    expect(new Set(ids).size).toBe(200);
    for (const [i, id] of ids.entries()) {
      const done = await waitDone({ ...srv, baseUrl: apis[i % 2]!.baseUrl! }, id, a.apiKey, 600_000);
      expect(done.status).toBe('completed');
    }
    const db = new pg.Pool({ connectionString: srv.databaseUrl, max: 1 });
    try {
      const runs = await db.query<{ attempts: number; n: number }>(
        `select attempts, count(*)::int as n from generations where account_id = $1 group by attempts`,
        [a.accountId],
      );
      expect(runs.rows).toEqual([{ attempts: 1, n: 200 }]);
      const jobs = await db.query(`select count(*)::int as n from graphile_worker.jobs`);
      expect(jobs.rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
    const view = await accountView(srv, a.accountId);
    expect(view.ledger.filter((l) => l.kind === 'charge')).toHaveLength(200);
    expect(view.ledger.filter((l) => l.kind === 'refund')).toHaveLength(0);
    expect(view.balance_usd).toBeCloseTo(10 - 200 * 0.01, 6);
  }, 900_000);
});
