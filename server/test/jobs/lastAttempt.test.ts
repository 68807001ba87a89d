/**
 * A generation whose work keeps failing with an unexpected error (not the client's input, not a
 * provider's refusal) is failed and refunded on its last attempt, and its error_message tells the
 * client that it was an internal error without repeating the error itself: such messages carry the
 * server's temp paths and library internals (the operator finds them in the log).
 * runGenerationJob is called directly on a job the server queued, with no worker running.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../dist/context.js';
import { MAX_TRIES, runGenerationJob } from '../../dist/jobs/runGeneration.js';
import { createLogger } from '../../dist/log.js';
import type { TestServer } from '../../dist/testing/index.js';
import { accountView, call, startServer } from '../helpers.js';

let srv: TestServer;
let db: pg.Pool;
beforeAll(async () => {
  // One API process and one worker process; the worker is stopped so that nothing runs the job.
  srv = await startServer({ workers: 1 });
  const worker = srv.processes.find((p) => p.kind === 'worker')!;
  await worker.kill('SIGTERM');
  db = new pg.Pool({ connectionString: srv.databaseUrl, max: 2 });
}, 180_000);
afterAll(async () => {
  await db?.end();
  await srv?.stop();
});

describe('the last attempt of a generation that keeps failing', () => {
  it('fails and refunds it with a message that does not repeat the internal error', async () => {
    const { accountId, apiKey } = await srv.createAccount(5);
    const before = (await accountView(srv, accountId)).balance_usd;
    const submitted = await call(srv, 'POST', '/scene-painter/text-to-image', {
      key: apiKey,
      body: { prompt: 'a lighthouse at dusk' },
    });
    expect(submitted.status).toBe(202);
    const id = submitted.body.data.id as string;
    expect((await accountView(srv, accountId)).balance_usd).toBeLessThan(before);

    const ctx = { pool: db, log: createLogger('error') } as unknown as AppContext;
    const internal = 'ENOENT: no such file or directory, open /tmp/mediagen-job-Xy12/out.png';
    const helpers = { job: { attempts: MAX_TRIES } } as Parameters<typeof runGenerationJob>[2];
    await runGenerationJob(ctx, { generation_id: id }, helpers, async () => {
      throw new Error(internal);
    });

    const status = await call(srv, 'GET', `/status/${id}`, { key: apiKey });
    expect(status.body.data.status).toBe('failed');
    const message = status.body.data.error_message as string;
    expect(message).toMatch(/internal error/);
    expect(message).not.toContain('/tmp/');
    expect(message).not.toContain('ENOENT');
    const after = await accountView(srv, accountId);
    expect(after.balance_usd).toBe(before);
    expect(
      after.ledger
        .filter((e) => e.generation_id === id)
        .map((e) => e.kind)
        .sort(),
    ).toEqual(['charge', 'refund']);
  }, 120_000);
});
