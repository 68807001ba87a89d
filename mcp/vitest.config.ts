import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@mediagen/mcp',
    include: ['test/**/*.test.ts'],
    // One real server for all files (see test/globalSetup.ts).
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
