import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'n8n-nodes-mediagen',
    include: ['test/**/*.test.ts'],
    // Generations run on a real server on a shared 2-core machine: generous limits, no timing assertions.
    testTimeout: 180_000,
    // Both files build dist/ (test/harness.ts) before loading it: one file at a time.
    fileParallelism: false,
    hookTimeout: 240_000,
  },
});
