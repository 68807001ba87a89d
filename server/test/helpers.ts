/** Shared by the server's integration tests (not a test file). */
import { fileURLToPath } from 'node:url';
import { createClient } from '@mediagen/core/undici';
import { inject } from 'vitest';
import { startTestServer, type TestServer, type TestServerOptions } from '../dist/testing/index.js';

export const FIXTURES = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));

/** A real server on its own database in the shared embedded PostgreSQL. */
export function startServer(options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer({ databaseUrl: inject('pgUrl'), ...options });
}

export function clientFor(srv: TestServer, apiKey = srv.apiKey) {
  return createClient({ apiKey, baseUrl: srv.baseUrl, retry: { maxRetries: 0 } });
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

/** A plain HTTP call, to see exact statuses, headers and bodies. */
export async function call(
  srv: { baseUrl: string },
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const url = path.startsWith('http') ? path : `${srv.baseUrl}${path}`;
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Asserts the spec's error envelope and returns the message. */
export function expectError(res: RawResponse, status: number, code: string): string {
  if (res.status !== status || res.body?.success !== false || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 500)}`);
  }
  const message = res.body.error.message as string;
  if (typeof message !== 'string' || message.length === 0) throw new Error('error without a message');
  if (/\n\s+at\s/.test(res.text) || res.text.includes('.ts:') || res.text.includes('.js:')) {
    throw new Error(`a stack trace leaked: ${res.text}`);
  }
  return message;
}

/** Polls the database-backed status with Prefer: wait until the generation is final. */
export async function waitDone(srv: TestServer, id: string, key = srv.apiKey, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(srv, 'GET', `/status/${id}`, { key, headers: { prefer: 'wait=20' } });
    if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
    if (res.body.data.status === 'completed' || res.body.data.status === 'failed') return res.body.data;
    if (Date.now() > end)
      throw new Error(`generation ${id} still ${res.body.data.status} after ${timeoutMs} ms`);
  }
}

/** Admin API call. */
export function admin(srv: TestServer, method: string, path: string, body?: unknown, token = srv.adminToken) {
  const root = srv.baseUrl.replace(/\/api\/v3$/, '');
  return call({ baseUrl: root }, method, `/admin/v1${path}`, { key: token, body });
}

export async function balanceOf(srv: TestServer, accountId: string): Promise<number> {
  const res = await admin(srv, 'GET', `/accounts/${accountId}`);
  return res.body.data.balance_usd as number;
}

export async function accountView(srv: TestServer, accountId: string) {
  return (await admin(srv, 'GET', `/accounts/${accountId}`)).body.data as {
    balance_usd: number;
    moderation_calls: number;
    ledger: Array<{ kind: string; amount_usd: number; generation_id: string | null }>;
  };
}
