import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Every module specifier the main entry reaches, following relative imports through the sources. */
function reachableImports(entry: string): { files: string[]; external: string[] } {
  const files = new Set<string>();
  const external = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(
      /(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const spec = (match[1] ?? match[2])!;
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else external.add(spec);
    }
  }
  return { files: [...files], external: [...external] };
}

describe('entry points', () => {
  it('the main entry imports nothing but zod (no undici, no node: modules), so it bundles into an n8n node', () => {
    const { external, files } = reachableImports(resolve(SRC, 'index.ts'));
    expect(external.sort()).toEqual(['zod']);
    expect(files.some((f) => f.endsWith('undici.ts'))).toBe(false);
  });

  it('the main entry exports the client contract', () => {
    for (const name of [
      'MediaGenClient',
      'MediaGenError',
      'ValidationError',
      'UnauthorizedError',
      'PaymentRequiredError',
      'ForbiddenError',
      'NotFoundError',
      'RateLimitedError',
      'InternalError',
      'WaitTimeoutError',
      'GenerationFailedError',
      'ResponseValidationError',
      'NetworkError',
      'TransportError',
      'systemClock',
      'idempotencyKeyFor',
    ]) {
      expect(core, name).toHaveProperty(name);
    }
    const methods = Object.getOwnPropertyNames(core.MediaGenClient.prototype);
    for (const method of [
      'listModels',
      'submit',
      'getGeneration',
      'waitForGeneration',
      'generate',
      'detectFaces',
      'faceSwap',
      'faceSwapAndWait',
      'moderate',
      'download',
    ]) {
      expect(methods, method).toContain(method);
    }
  });

  it('package.json maps ./undici and ./openapi to built files', () => {
    const pkg = JSON.parse(readFileSync(resolve(SRC, '../package.json'), 'utf8'));
    expect(pkg.exports['./undici'].import).toBe('./dist/client/undici.js');
    expect(pkg.exports['./openapi'].import).toBe('./dist/openapi.js');
  });
});
