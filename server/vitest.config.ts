import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@mediagen/server',
    include: ['test/**/*.test.ts'],
    // One embedded PostgreSQL for the whole project; each test file gets its own database.
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
