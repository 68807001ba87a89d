/** The operator API under /admin/v1 (Bearer MEDIAGEN_ADMIN_TOKEN) and its ledger invariant. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, type TestServer } from '../../dist/testing/index.js';
import { admin, call, expectError, startServer } from '../helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(() => srv?.stop());

describe('admin API', () => {
  it('401 without or with a wrong admin token; an API key is not an admin token', async () => {
    expectError(await admin(srv, 'POST', '/accounts', { balance_usd: 1 }, ''), 401, 'UNAUTHORIZED');
    expectError(
      await admin(srv, 'POST', '/accounts', { balance_usd: 1 }, 'wrong-token-wrong-token'),
      401,
      'UNAUTHORIZED',
    );
    expectError(await admin(srv, 'POST', '/accounts', { balance_usd: 1 }, srv.apiKey), 401, 'UNAUTHORIZED');
  });

  it('accounts, keys, credits, disable, and the ledger summing to the balance', async () => {
    const created = await admin(srv, 'POST', '/accounts', { balance_usd: 2.5 });
    expect(created.status).toBe(201);
    expect(created.body.data.balance_usd).toBe(2.5);
    const id = created.body.data.account_id as string;
    const key = await admin(srv, 'POST', `/accounts/${id}/keys`, {});
    expect(key.status).toBe(201);
    expect(key.body.data.api_key).toMatch(/^mg_/);
    const credits = await admin(srv, 'POST', `/accounts/${id}/credits`, { amount_usd: 1.25 });
    expect(credits.status).toBe(200);
    expect(credits.body.data.balance_usd).toBe(3.75);
    expect(
      (
        await call(srv, 'POST', '/scene-painter/text-to-image', {
          key: key.body.data.api_key,
          body: { prompt: 'x' },
        })
      ).status,
    ).toBe(202);
    const view = await admin(srv, 'GET', `/accounts/${id}`);
    expect(view.status).toBe(200);
    const data = view.body.data;
    expect(data.moderation_calls).toBe(0);
    const sum = data.ledger.reduce((s: number, l: { amount_usd: number }) => s + l.amount_usd, 0);
    expect(sum).toBeCloseTo(data.balance_usd, 6);
    expect(data.ledger.map((l: { kind: string }) => l.kind).sort()).toEqual(['charge', 'top_up', 'top_up']);
    const disabled = await admin(srv, 'POST', `/keys/${key.body.data.key_id}/disable`);
    expect(disabled.status).toBe(200);
    expectError(await call(srv, 'GET', '/models', { key: key.body.data.api_key }), 403, 'FORBIDDEN');
  });

  it('400 naming the field and 404 for unknown ids', async () => {
    expect(
      expectError(await admin(srv, 'POST', '/accounts', { balance_usd: -1 }), 400, 'VALIDATION_ERROR'),
    ).toMatch(/balance_usd/);
    expect(
      expectError(
        await admin(srv, 'POST', `/accounts/${srv.accountId}/credits`, { amount_usd: 0 }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/amount_usd/);
    // Less than a micro-dollar would be rounded to nothing: refused, naming the precision.
    expect(
      expectError(
        await admin(srv, 'POST', `/accounts/${srv.accountId}/credits`, { amount_usd: 0.0000001 }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/amount_usd.*6 decimal places/);
    expect(
      expectError(await admin(srv, 'POST', '/accounts', { balance_usd: 1.2345678 }), 400, 'VALIDATION_ERROR'),
    ).toMatch(/balance_usd.*micro-dollars/);
    expect(
      (await admin(srv, 'POST', `/accounts/${srv.accountId}/credits`, { amount_usd: 0.000001 })).status,
    ).toBe(200);
    expect(
      expectError(
        await admin(srv, 'POST', `/accounts/${srv.accountId}/keys`, { expires_at: 'soon' }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toMatch(/expires_at/);
    expectError(await admin(srv, 'GET', '/accounts/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    expectError(await admin(srv, 'GET', '/accounts/nope'), 404, 'NOT_FOUND');
    expectError(
      await admin(srv, 'POST', '/keys/00000000-0000-4000-8000-000000000000/disable'),
      404,
      'NOT_FOUND',
    );
    expectError(
      await admin(srv, 'POST', '/accounts/00000000-0000-4000-8000-000000000000/credits', { amount_usd: 1 }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('admin CLI (npm run admin -- ...)', () => {
  const cli = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [MAIN_JS.replace(/main\.js$/, 'admin/cli.js'), ...args],
      {
        env: { ...process.env, DATABASE_URL: srv.databaseUrl },
      },
    );
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  it('creates an account and a key, adds credits, shows it, disables the key', async () => {
    const account = await cli('accounts', 'create', '--balance', '3');
    expect(account.balance_usd).toBe(3);
    const id = String(account.account_id);
    const key = await cli('keys', 'create', id);
    expect(String(key.api_key)).toMatch(/^mg_/);
    expect((await call(srv, 'GET', '/models', { key: String(key.api_key) })).status).toBe(200);
    expect((await cli('credits', 'add', id, '1.5')).balance_usd).toBe(4.5);
    const shown = await cli('accounts', 'show', id);
    expect(shown.balance_usd).toBe(4.5);
    expect((shown.ledger as unknown[]).length).toBe(2);
    await cli('keys', 'disable', String(key.key_id));
    expectError(await call(srv, 'GET', '/models', { key: String(key.api_key) }), 403, 'FORBIDDEN');
  });

  it('says what is wrong and exits 1', async () => {
    await expect(cli('accounts', 'show', '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/not found/),
    });
    await expect(cli('credits', 'add', srv.accountId, 'lots')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/US dollars/),
    });
  });
});
