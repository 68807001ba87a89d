import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'n8n-nodes-mediagen',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
