import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../dist/testing/index.js';
import { call, expectError, startServer } from '../helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(() => srv?.stop());

describe('errors in the envelope', () => {
  it('unknown routes are 404 in the envelope, under /api/v3 and outside', async () => {
    const root = { baseUrl: srv.baseUrl.replace(/\/api\/v3$/, '') };
    expectError(await call(root, 'GET', '/nothing/here'), 404, 'NOT_FOUND');
    expectError(await call(srv, 'GET', '/no/such/thing', { key: srv.apiKey }), 404, 'NOT_FOUND');
    expectError(await call(srv, 'DELETE', '/models', { key: srv.apiKey }), 404, 'NOT_FOUND');
  });

  it('a body over 1 MiB is a 400 naming the limit, and the server keeps serving', async () => {
    const huge = JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 + 10) });
    const msg = expectError(
      await call(srv, 'POST', '/scene-painter/text-to-image', { key: srv.apiKey, rawBody: huge }),
      400,
      'VALIDATION_ERROR',
    );
    expect(msg).toMatch(/1048576 bytes/);
    expect((await call(srv, 'GET', '/models', { key: srv.apiKey })).status).toBe(200);
  });

  it('headers over the HTTP parser limit and bytes that are not HTTP get the envelope too, and the server keeps serving', async () => {
    const long = await call(srv, 'POST', '/moderation', {
      body: { text: 'x' },
      headers: { authorization: `Bearer ${'k'.repeat(20_000)}` },
    });
    expect(expectError(long, 400, 'VALIDATION_ERROR')).toMatch(/headers are too large.*16384 bytes/);
    const { hostname, port } = new URL(srv.baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write('\u0001\u0002 not http at all\r\n\r\n'),
      );
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: 'malformed HTTP request' },
    });
    expect((await call(srv, 'GET', '/models', { key: srv.apiKey })).status).toBe(200);
  });

  it('invalid JSON and a non-object body are 400', async () => {
    expectError(
      await call(srv, 'POST', '/scene-painter/text-to-image', { key: srv.apiKey, rawBody: '{"prompt": ' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call(srv, 'POST', '/scene-painter/text-to-image', { key: srv.apiKey, rawBody: '[1,2]' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('every response carries an x-request-id; an incoming one is kept', async () => {
    const res = await call(srv, 'GET', '/models', {
      key: srv.apiKey,
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    const other = await call(srv, 'GET', '/models', { key: srv.apiKey });
    expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('healthz answers; readyz turns 200 once the moderation and face models are loaded', async () => {
    const root = { baseUrl: srv.baseUrl.replace(/\/api\/v3$/, '') };
    const h = await call(root, 'GET', '/healthz');
    expect(h.status).toBe(200);
    expect(h.body).toEqual({ success: true, data: { status: 'ok' } });
    let r = await call(root, 'GET', '/readyz');
    for (let i = 0; i < 120 && r.status !== 200; i++) {
      expectError(r, 503 as never, 'INTERNAL_ERROR'); // not ready yet: the envelope, saying why
      await new Promise((resolve) => setTimeout(resolve, 1000));
      r = await call(root, 'GET', '/readyz');
    }
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'ready', database: 'ok', engines: 'ready' });
  }, 180_000);

  it('GET /openapi.json serves the core-generated document pointing at this server', async () => {
    const root = { baseUrl: srv.baseUrl.replace(/\/api\/v3$/, '') };
    for (const path of ['/openapi.json', '/api/v3/openapi.json']) {
      const res = await call(root, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body.openapi).toMatch(/^3\./);
      expect(Object.keys(res.body.paths)).toEqual(
        expect.arrayContaining(['/models', '/status/{id}', '/moderation']),
      );
      expect(res.body.servers[0].url).toBe(srv.baseUrl);
    }
  });
});
