import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@mediagen/e2e',
    include: ['**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
