/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) in server mode against
 * `mediagen-mcp --http` (Streamable HTTP, stateful sessions). The suite needs Node 22: it runs with the
 * Node 22 binary of the `node` npm package, a dev dependency of mcp/. The MCP server itself runs on
 * this machine's Node (20).
 *
 * Expected failures (mcp/conformance/expected-failures.yml) list only scenarios for features the server
 * deliberately does not offer; every other scenario must pass. The server is started with
 * --conformance-fixtures, which adds the test-only tools the suite calls by name (see
 * mcp/src/conformanceFixtures.ts).
 *
 * Counts scenarios: passed = scenarios that passed; failed = unexpected failures plus expected failures
 * that started passing (a stale baseline); skipped = expected failures (features not offered).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function expectedFailures(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => /^\s*-\s*([\w-]+)\s*$/.exec(line)?.[1])
    .filter(Boolean);
}

function startServer(root) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'mcp/dist/cli.js'), '--http', '0', '--conformance-fixtures'],
      {
        cwd: root,
        env: {
          ...process.env,
          MEDIAGEN_BASE_URL: process.env.MEDIAGEN_BASE_URL ?? 'http://127.0.0.1:9/api/v3',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let err = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`mediagen-mcp --http did not start:\n${err}`));
    }, 30_000);
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const url = /Streamable HTTP on (\S+)/.exec(err)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mediagen-mcp exited with ${code}:\n${err}`));
    });
  });
}

function runSuite(node22, cli, url, cwd) {
  return new Promise((resolve) => {
    const child = spawn(node22, [cli, 'server', '--url', url], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill(), 240_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

export async function run({ root }) {
  const mcp = join(root, 'mcp');
  const node22 = join(mcp, 'node_modules/node/bin/node');
  const cli = join(mcp, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  for (const [what, path] of [
    ['Node 22 (npm package "node", dev dependency of mcp; its install script must run)', node22],
    ['@modelcontextprotocol/conformance', cli],
    ['mcp/dist/cli.js (build mcp first)', join(mcp, 'dist/cli.js')],
  ]) {
    if (!existsSync(path)) {
      console.error(`mcp-conformance: missing ${what}: ${path}`);
      return { passed: 0, failed: 1 };
    }
  }
  const expected = new Set(expectedFailures(join(mcp, 'conformance/expected-failures.yml')));
  const work = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  const { child, url } = await startServer(root);
  try {
    const { out } = await runSuite(node22, cli, url, work);
    const results = [...out.matchAll(/^([✓✗])\s+([\w-]+):\s+(\d+) passed, (\d+) failed/gmu)].map((m) => ({
      name: m[2],
      ok: m[1] === '✓' && m[4] === '0',
    }));
    if (results.length === 0) {
      console.error(`mcp-conformance: no scenario results in the suite's output:\n${out}`);
      return { passed: 0, failed: 1 };
    }
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const r of results) {
      if (r.ok && !expected.has(r.name)) passed++;
      else if (!r.ok && expected.has(r.name)) skipped++;
      else {
        failed++;
        console.error(
          r.ok
            ? `mcp-conformance: ${r.name} passes but is listed in expected-failures.yml: remove it`
            : `mcp-conformance: ${r.name} FAILED (not an expected failure)`,
        );
      }
    }
    console.log(
      `mcp-conformance: ${passed} scenarios passed, ${failed} failed, ${skipped} expected failures (features not offered)`,
    );
    if (failed > 0) console.log(out);
    return { passed, failed, skipped };
  } finally {
    child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

// Run directly: node scripts/suites/mcp-conformance.mjs
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
  const result = await run({ root });
  console.log(JSON.stringify(result));
  process.exit(result.failed === 0 ? 0 : 1);
}
