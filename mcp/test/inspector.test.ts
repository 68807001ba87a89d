/**
 * What a user does to debug the server: the official MCP Inspector's CLI mode
 * (`npx @modelcontextprotocol/inspector --cli ...`) launching `node mcp/dist/cli.js` over stdio and
 * calling a tool. The Inspector needs Node >= 22.19, so it runs on the Node 22 binary of the `node` npm
 * package (a dev dependency of mcp); the MCP server it launches runs on this machine's Node.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, inject, it } from 'vitest';

const mcpDir = fileURLToPath(new URL('..', import.meta.url));
const node22 = join(mcpDir, 'node_modules/node/bin/node');
const inspector = join(
  mcpDir,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const cli = join(mcpDir, 'dist/cli.js');
// The Inspector keeps a catalog and secrets under HOME: give it a throwaway one.
const home = mkdtempSync(join(tmpdir(), 'mcp-inspector-home-'));

afterAll(() => rmSync(home, { recursive: true, force: true }));

function inspect(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  for (const path of [node22, inspector, cli]) if (!existsSync(path)) throw new Error(`missing ${path}`);
  return new Promise((resolve) => {
    const child = spawn(
      node22,
      [
        inspector,
        '--cli',
        '-e',
        `MEDIAGEN_API_KEY=${inject('apiKey')}`,
        '-e',
        `MEDIAGEN_BASE_URL=${inject('baseUrl')}`,
        ...args,
        '--',
        process.execPath,
        cli,
      ],
      {
        env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

it('calls moderate through `inspector --cli --method tools/call`', async () => {
  const { code, stdout, stderr } = await inspect([
    '--method',
    'tools/call',
    '--tool-name',
    'moderate',
    '--tool-arg',
    'text=The weather is lovely today.',
    '--format',
    'json',
  ]);
  expect(code, stderr).toBe(0);
  const { result } = JSON.parse(stdout) as {
    result: { isError?: boolean; structuredContent: Record<string, unknown> };
  };
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ media_type: 'text', policy: 'nsfw', nsfw: false });
});

it('lists the tools with `--strict` and reports no schema portability errors', async () => {
  const { code, stdout, stderr } = await inspect(['--method', 'tools/list', '--strict', '--format', 'json']);
  expect(code, stderr).toBe(0);
  expect(stderr).toMatch(/0 errors/);
  const { result } = JSON.parse(stdout) as { result: { tools: { name: string }[] } };
  const names = result.tools.map((t) => t.name);
  expect(names).toContain('generate');
});
