import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/core', 'server', 'mcp', 'nodes', 'test'],
  },
});
