#!/usr/bin/env node
/**
 * The README's commands, runnable on a machine with only Node and npm:
 *   npm start   install, build, start the server (embedded PostgreSQL, development key printed)
 *   npm test    install, build, lint, run every test suite, print `N passed, M failed`
 *   npm run bench   install, build, run every benchmark in bench/ (figures go to docs/benchmarks.md)
 *   npm run admin -- <args>   the server's operator CLI
 *   npm run build   install and build every package (what start and test do first)
 * pnpm is taken from the root package.json "packageManager" field through `npx -y pnpm@<version>`
 * (corepack is not relied on: its download fails signature checks on some registries).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmVersion = pkg.packageManager.replace(/^pnpm@/, '');
const [command = 'test', ...rest] = process.argv.slice(2);

function sh(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
    const forward = (sig) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
    child.on('error', (err) => {
      console.error(`${cmd}: ${err.message}`);
      resolve(1);
    });
  });
}

const pnpm = (...args) => sh('npx', ['-y', `pnpm@${pnpmVersion}`, ...args]);

async function installAndBuild() {
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  if ((await pnpm('install', ...frozen)) !== 0) process.exit(1);
  if ((await pnpm('-r', '--workspace-concurrency=1', 'run', 'build')) !== 0) process.exit(1);
}

async function test() {
  await installAndBuild();
  mkdirSync(join(root, '.cache'), { recursive: true });
  const results = [];

  // 0. The suites that are not vitest (MCP conformance, n8n end to end, docker checks):
  // scripts/suites/*.mjs, each exporting `run()` that resolves to {passed, failed, skipped?}. One that
  // also exports `prepare()` starts there what it needs from the network (n8n: about 3 GB and a native
  // compile, 6-7 minutes on a cold machine) in the background, now, so that it overlaps lint and
  // vitest instead of adding to it; its `run()` waits for it.
  const suitesDir = join(root, 'scripts', 'suites');
  const suites = [];
  for (const file of existsSync(suitesDir)
    ? readdirSync(suitesDir)
        .filter((f) => f.endsWith('.mjs'))
        .sort()
    : []) {
    const name = file.replace(/\.mjs$/, '');
    try {
      const mod = await import(join(suitesDir, file));
      mod.prepare?.({ root });
      suites.push({ name, mod });
    } catch (err) {
      suites.push({ name, error: err });
    }
  }

  // 1. Lint and format, one check each.
  results.push({
    name: 'eslint',
    ...((await sh('npx', ['eslint', '.'])) === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }),
  });
  results.push({
    name: 'prettier',
    ...((await sh('npx', ['prettier', '--check', '.'])) === 0
      ? { passed: 1, failed: 0 }
      : { passed: 0, failed: 1 }),
  });

  // 2. Every vitest project (packages/core, server, nodes, mcp, test).
  const report = join(root, '.cache', 'vitest.json');
  const code = await sh('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...rest,
  ]);
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    const brokenFiles = (r.testResults ?? []).filter(
      (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
    ).length;
    results.push({
      name: 'vitest',
      passed: r.numPassedTests,
      failed: r.numFailedTests + brokenFiles,
      skipped: r.numPendingTests + r.numTodoTests,
    });
  } else {
    results.push({ name: 'vitest', passed: 0, failed: 1 });
  }
  if (code !== 0 && results.at(-1).failed === 0) results.at(-1).failed = 1;

  // 3. The other suites, one after the other.
  for (const { name, mod, error } of suites) {
    try {
      if (error) throw error;
      results.push({ name, ...(await mod.run({ root, pnpm, sh })) });
    } catch (err) {
      console.error(`suite ${name} crashed: ${err?.stack ?? err}`);
      results.push({ name, passed: 0, failed: 1 });
    }
  }

  let passed = 0,
    failed = 0,
    skipped = 0;
  console.log('\nSuites:');
  for (const r of results) {
    console.log(
      `  ${r.name}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`,
    );
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped ?? 0;
  }
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed === 0 ? 0 : 1);
}

async function start() {
  await installAndBuild();
  process.exit(await sh('node', ['server/dist/main.js', ...rest]));
}

async function bench() {
  await installAndBuild();
  const dir = join(root, 'bench');
  const only = rest[0];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()) {
    if (only && !file.includes(only)) continue;
    console.log(`\n=== ${file}`);
    if ((await sh('npx', ['tsx', join('bench', file)])) !== 0) process.exitCode = 1;
  }
}

async function admin() {
  if (!existsSync(join(root, 'server', 'dist', 'admin', 'cli.js'))) await installAndBuild();
  process.exit(await sh('node', ['server/dist/admin/cli.js', ...rest]));
}

async function build() {
  await installAndBuild();
}

const commands = { test, start, bench, admin, build };
if (!commands[command]) {
  console.error(`usage: node scripts/run.mjs <${Object.keys(commands).join('|')}> [args]`);
  process.exit(2);
}
await commands[command]();
