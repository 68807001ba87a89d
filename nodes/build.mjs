#!/usr/bin/env node
/**
 * Builds the package n8n loads: dist/nodes/MediaGen/MediaGen.node.js and
 * dist/credentials/MediaGenApi.credentials.js, CommonJS, with @mediagen/core (and the zod it uses)
 * BUNDLED in by esbuild, so the published package has no runtime dependencies; n8n-workflow stays
 * external (a peer dependency n8n provides). Icons and the codex file are copied next to the code.
 *
 * Guards (the build fails if broken):
 * - the bundle must not contain undici (the node talks HTTP only through n8n's helpers);
 * - core's system clock (a setTimeout sleep) is swapped for a module that refuses to run: the node
 *   always injects its clock over n8n-workflow's `sleep`, so the timer code never ships.
 * - `globalThis` inside the bundle is a private object (esbuild define + inject): zod keeps its global
 *   config and schema registry on `globalThis`, and core's env fallback reads `globalThis.process`. In
 *   n8n the node must not touch the process's global state (n8n's community-nodes rule
 *   no-restricted-globals), so zod's state stays inside this bundle and the env is never read (the
 *   node passes its base URL and key explicitly).
 */
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

/** core's client/clock.js -> a stub: the n8n node passes its own clock (see v1/transport). */
const noSystemClock = {
  name: 'no-system-clock',
  setup(b) {
    b.onLoad({ filter: /[\\/]core[\\/]dist[\\/]client[\\/]clock\.js$/ }, () => ({
      contents:
        'export const systemClock = { now: () => Date.now(), sleep: () => Promise.reject(new Error("mediagen: no system clock in n8n; pass a clock")) };',
      loader: 'js',
    }));
  },
};

const result = await build({
  entryPoints: {
    'nodes/MediaGen/MediaGen.node': join(root, 'nodes/MediaGen/MediaGen.node.ts'),
    'credentials/MediaGenApi.credentials': join(root, 'credentials/MediaGenApi.credentials.ts'),
  },
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['n8n-workflow'],
  plugins: [noSystemClock],
  define: { globalThis: '__mediagenScope' },
  inject: [join(root, 'bundle-scope.mjs')],
  metafile: true,
  legalComments: 'none',
  sourcemap: false,
  logLevel: 'warning',
});

const inputs = Object.keys(result.metafile.inputs);
const undici = inputs.filter((p) => p.includes('undici'));
if (undici.length > 0) {
  console.error(`build: undici must not be bundled into the n8n node, found: ${undici.join(', ')}`);
  process.exit(1);
}

for (const [from, to] of [
  ['nodes/MediaGen/mediagen.svg', 'nodes/MediaGen/mediagen.svg'],
  ['nodes/MediaGen/mediagen.dark.svg', 'nodes/MediaGen/mediagen.dark.svg'],
  ['nodes/MediaGen/MediaGen.node.json', 'nodes/MediaGen/MediaGen.node.json'],
  ['credentials/mediagen.svg', 'credentials/mediagen.svg'],
  ['credentials/mediagen.dark.svg', 'credentials/mediagen.dark.svg'],
]) {
  mkdirSync(dirname(join(dist, to)), { recursive: true });
  cpSync(join(root, from), join(dist, to));
}

const size = (p) => (readFileSync(join(dist, p)).length / 1024).toFixed(0);
console.log(
  `build: dist/nodes/MediaGen/MediaGen.node.js ${size('nodes/MediaGen/MediaGen.node.js')} KiB, ` +
    `dist/credentials/MediaGenApi.credentials.js ${size('credentials/MediaGenApi.credentials.js')} KiB ` +
    `(${inputs.length} modules bundled, n8n-workflow external)`,
);
