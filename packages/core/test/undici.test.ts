import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, RateLimitedError, TransportError } from '../src/index.js';
import { createClient, toTransportError, undiciTransport } from '../src/client/undici.js';
import { collect, fakeClock, generation } from './helpers/mocks.js';

type Handle = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function startServer(handle: Handle) {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, res, body));
  });
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    origin: `http://127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}/api/v3`,
    connections: () => connections,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function transport() {
  const t = undiciTransport();
  cleanups.push(() => t.close());
  return t;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('undiciTransport over real HTTP', () => {
  it('sends method, headers and body; returns status, lower-case headers and text', async () => {
    const seen: Array<{ method?: string; url?: string; headers: IncomingMessage['headers']; body: string }> =
      [];
    const srv = await startServer((req, res, body) => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      sendJson(res, 202, { success: true, data: generation() }, { 'X-Request-Id': 'req-42' });
    });
    const response = await transport().request({
      method: 'POST',
      url: `${srv.baseUrl}/flux/text-to-image`,
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: '{"prompt":"a"}',
    });
    expect(response.status).toBe(202);
    expect(response.headers['x-request-id']).toBe('req-42');
    expect(JSON.parse(response.body).data.id).toBe('gen_1');
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/v3/flux/text-to-image',
      body: '{"prompt":"a"}',
    });
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer k', 'content-type': 'application/json' });
  });

  it('keeps connections alive across requests', async () => {
    const srv = await startServer((_req, res) => sendJson(res, 200, { success: true, data: [] }));
    const t = transport();
    for (let i = 0; i < 6; i++) await t.request({ method: 'GET', url: `${srv.baseUrl}/models`, headers: {} });
    // Six requests over at most two sockets: connections are reused, not opened per request.
    expect(srv.connections()).toBeLessThanOrEqual(2);
  });

  it('connection refused is a TransportError with notSent=true', async () => {
    const port = await freePort();
    const error = await transport()
      .request({ method: 'POST', url: `http://127.0.0.1:${port}/api/v3/m/t`, headers: {}, body: '{}' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).notSent).toBe(true);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('no answer within timeoutMs is a TransportError with notSent=false', async () => {
    const srv = await startServer(() => {
      /* never answers */
    });
    const error = await transport()
      .request({ method: 'POST', url: `${srv.baseUrl}/m/t`, headers: {}, body: '{}', timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).notSent).toBe(false);
    expect((error as Error).message).toMatch(/no response within 300 ms/);
  });

  it('a connection reset after sending is notSent=false', async () => {
    const srv = await startServer((req) => req.socket.destroy());
    const error = await transport()
      .request({ method: 'POST', url: `${srv.baseUrl}/m/t`, headers: {}, body: '{}' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).notSent).toBe(false);
  });

  it("the caller's abort rejects with the signal's reason", async () => {
    const srv = await startServer(() => {
      /* never answers */
    });
    const controller = new AbortController();
    const reason = new Error('caller aborted');
    const pending = transport().request({
      method: 'GET',
      url: `${srv.baseUrl}/models`,
      headers: {},
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });

  it('download streams chunks as they come, with the response headers', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'video/mp4',
        'content-disposition': 'attachment; filename="clip.mp4"',
      });
      res.write('part1-');
      setTimeout(() => res.end('part2'), 20);
    });
    const download = await transport().download({ url: `${srv.origin}/files/abc`, headers: {} });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('video/mp4');
    expect(await collect(download.body)).toBe('part1-part2');
  });

  it('classifies nested error codes (AggregateError of a dual-stack connect)', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED ::1:80'), { code: 'ECONNREFUSED' });
    const aggregate = new AggregateError([inner], 'connect failed');
    expect(toTransportError(aggregate, 'GET x').notSent).toBe(true);
    expect(toTransportError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), 'GET x').notSent).toBe(
      false,
    );
    expect(toTransportError(new Error('x', { cause: { code: 'ENOTFOUND' } }), 'GET x').notSent).toBe(true);
  });
});

describe('createClient over real HTTP', () => {
  it('generates end to end: submit, poll, download', async () => {
    let polls = 0;
    const requests: string[] = [];
    const srv = await startServer((req, res, body) => {
      requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
      if (req.method === 'POST' && req.url === '/api/v3/flux/text-to-image') {
        expect(JSON.parse(body)).toEqual({ prompt: 'a red square' });
        return sendJson(res, 202, { success: true, data: generation() });
      }
      if (req.url === '/api/v3/status/gen_1') {
        polls += 1;
        const data =
          polls < 2
            ? generation()
            : generation({ status: 'completed', output_url: `${srv.origin}/files/gen_1/out.png?sig=x` });
        return sendJson(res, 200, { success: true, data });
      }
      if (req.url?.startsWith('/files/gen_1/out.png')) {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' });
        return res.end('PNG!');
      }
      sendJson(res, 404, { success: false, error: { code: 'NOT_FOUND', message: 'nothing here' } });
    });
    const client = createClient({ apiKey: 'key-1', baseUrl: srv.baseUrl });
    const result = await client.generate(
      'flux',
      'text-to-image',
      { prompt: 'a red square' },
      { pollIntervalMs: 20 },
    );
    expect(result.status).toBe('completed');
    const file = await client.download(result.output_url!);
    expect(file).toMatchObject({ contentType: 'image/png', fileName: 'out.png', contentLength: 4 });
    expect(await collect(file.body)).toBe('PNG!');
    expect(requests[0]).toBe('POST /api/v3/flux/text-to-image Bearer key-1');
    expect(requests.filter((r) => r.startsWith('GET /api/v3/status/gen_1'))).toHaveLength(2);
  });

  it('a refused POST is retried (never sent) and ends as NetworkError notSent', async () => {
    const port = await freePort();
    const clock = fakeClock();
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}/api/v3`,
      clock,
      retry: { maxRetries: 2 },
    });
    const error = (await client.moderate({ text: 'x' }).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.notSent).toBe(true);
    expect(clock.sleeps).toHaveLength(2);
  });
});

describe('createClient over undici MockAgent', () => {
  function mockAgent() {
    const agent = new MockAgent();
    agent.disableNetConnect();
    cleanups.push(() => agent.close());
    return agent;
  }

  it('honours Retry-After on a 429 through the real undici stack', async () => {
    const agent = mockAgent();
    const pool = agent.get('https://api.example.com');
    pool
      .intercept({ path: '/api/v3/models', method: 'GET' })
      .reply(
        429,
        { success: false, error: { code: 'RATE_LIMITED', message: 'slow down' } },
        { headers: { 'retry-after': '3' } },
      );
    pool
      .intercept({ path: '/api/v3/models', method: 'GET', headers: { authorization: 'Bearer k' } })
      .reply(200, {
        success: true,
        data: [{ slug: 's', name: 'S', type: 'image', tasks: ['text-to-image'], price_from_usd: 0.01 }],
      });
    const clock = fakeClock();
    const client = createClient({
      apiKey: 'k',
      baseUrl: 'https://api.example.com/api/v3',
      clock,
      undici: { dispatcher: agent },
    });
    await expect(client.listModels()).resolves.toHaveLength(1);
    expect(clock.sleeps).toEqual([3000]);
    agent.assertNoPendingInterceptors();
  });

  it('gives the 429 to the caller when retries are off', async () => {
    const agent = mockAgent();
    agent
      .get('https://api.example.com')
      .intercept({ path: '/api/v3/moderation', method: 'POST' })
      .reply(
        429,
        { success: false, error: { code: 'RATE_LIMITED', message: 'slow down' } },
        { headers: { 'retry-after': '5', 'x-request-id': 'r-1' } },
      );
    const client = createClient({
      baseUrl: 'https://api.example.com/api/v3',
      retry: { maxRetries: 0 },
      undici: { dispatcher: agent },
    });
    const error = (await client.moderate({ text: 'hello' }).catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 5000, requestId: 'r-1', status: 429 });
  });

  it('a non-JSON 200 body is a ResponseValidationError', async () => {
    const agent = mockAgent();
    agent
      .get('https://api.example.com')
      .intercept({ path: '/api/v3/models' })
      .reply(200, '<html>login page</html>', { headers: { 'content-type': 'text/html' } });
    const client = createClient({ baseUrl: 'https://api.example.com/api/v3', undici: { dispatcher: agent } });
    await expect(client.listModels()).rejects.toMatchObject({
      name: 'ResponseValidationError',
      field: '(body)',
    });
  });
});

describe('download timeouts', () => {
  it('a download whose headers never come fails after downloadHeadersTimeoutMs', async () => {
    const srv = await startServer(() => {
      /* never answers */
    });
    const t = undiciTransport({ downloadHeadersTimeoutMs: 200 });
    cleanups.push(() => t.close());
    const error = await t.download({ url: `${srv.origin}/files/x`, headers: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).notSent).toBe(false);
    expect((error as Error).message).toMatch(/UND_ERR_HEADERS_TIMEOUT/);
  });
});
