/**
 * End to end over Streamable HTTP: `node mcp/dist/cli.js --http 0` (stateful sessions), the SDK's
 * StreamableHTTPClientTransport, and the real server of globalSetup. The hosted server has no
 * MEDIAGEN_API_KEY of its own: each client sends its key in the Authorization header.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { textOf } from './helpers.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npx tsc -b mcp\` first`);
  const env: NodeJS.ProcessEnv = { ...process.env, MEDIAGEN_BASE_URL: inject('baseUrl') };
  delete env.MEDIAGEN_API_KEY;
  child = spawn(process.execPath, [cli, '--http', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  url = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no URL from mediagen-mcp --http:\n${err}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const found = /Streamable HTTP on (\S+)/.exec(err)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.on('exit', (code) => reject(new Error(`mediagen-mcp exited with ${code}:\n${err}`)));
  });
});

afterAll(() => {
  child?.kill('SIGTERM');
});

async function connect(apiKey?: string) {
  const client = new Client({ name: 'http-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(apiKey ? { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } } : {}),
  });
  await client.connect(transport);
  return { client, transport };
}

it('opens a stateful session and uses the API key from the Authorization header', async () => {
  const { client, transport } = await connect(inject('apiKey'));
  try {
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const result = await client.callTool({ name: 'moderate', arguments: { text: 'Have a nice day.' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ media_type: 'text', nsfw: false });
  } finally {
    await transport.terminateSession();
    await client.close();
  }
});

it('sessions are separate: a client with another key gets its own answer (here: no credit)', async () => {
  const { client, transport } = await connect(inject('brokeApiKey'));
  try {
    const list = await client.callTool({ name: 'list_models', arguments: { type: 'image' } });
    const slug = (list.structuredContent as { models: { slug: string; tasks: string[] }[] }).models.find(
      (m) => m.tasks.includes('text-to-image'),
    )!.slug;
    const result = await client.callTool({
      name: 'generate',
      arguments: { model: slug, task: 'text-to-image', params: { prompt: 'x' } },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/PAYMENT_REQUIRED/);
  } finally {
    await transport.terminateSession();
    await client.close();
  }
});

it('without any key the tools answer UNAUTHORIZED with what to do', async () => {
  const { client, transport } = await connect();
  try {
    const result = await client.callTool({ name: 'list_models', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/UNAUTHORIZED/);
    expect(textOf(result)).toMatch(/Authorization: Bearer/);
  } finally {
    await transport.terminateSession();
    await client.close();
  }
});

it('rejects requests without a session and with a foreign Host header (DNS rebinding)', async () => {
  const noSession = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(noSession.status).toBe(400);
  const target = new URL(url);
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          host: 'evil.example.com',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }));
  });
  expect(status).toBe(403);
});

it('refuses a request from a foreign web origin, and accepts one from a local page', async () => {
  const post = (origin: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        origin,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
  const foreign = await post('https://evil.example.com');
  expect(foreign.status).toBe(403);
  expect(((await foreign.json()) as { error: { message: string } }).error.message).toMatch(
    /web origin https:\/\/evil\.example\.com/,
  );
  expect((await post('null')).status).toBe(403);
  const local = await post('http://localhost:6274');
  expect(local.status).toBe(200);
  await local.body?.cancel();
});

it('answers a body that is not JSON or is too large with a JSON-RPC error, never an HTML stack trace', async () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const malformed = await fetch(url, { method: 'POST', headers, body: '{"jsonrpc":' });
  expect(malformed.status).toBe(400);
  expect(malformed.headers.get('content-type')).toMatch(/application\/json/);
  const parseError = (await malformed.json()) as { error: { code: number; message: string } };
  expect(parseError.error.code).toBe(-32700);
  const huge = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2_000_000) } }),
  });
  expect(huge.status).toBe(413);
  const tooLarge = (await huge.json()) as { error: { message: string } };
  expect(tooLarge.error.message).toMatch(/too large: the limit is \d+ bytes/);
  for (const body of [JSON.stringify(parseError), JSON.stringify(tooLarge)]) {
    expect(body).not.toMatch(/node_modules|\bat \w|SyntaxError|PayloadTooLargeError/);
  }
  // The server is still up.
  expect((await fetch(url.replace(/\/mcp$/, '/healthz'))).status).toBe(200);
});
