// n8n's own lint for community node packages (@n8n/node-cli: the community-nodes plugin, the
// n8n-nodes-base node/credential rules and typescript-eslint), run from this folder (`pnpm lint` here,
// and by scripts/suites/n8n-e2e.mjs). The root eslint.config.js ignores nodes/**: the two configs carry
// different typescript-eslint plugin instances, which ESLint refuses to mix on the same files.
import { config } from '@n8n/node-cli/eslint';

export default [
  ...config,
  { ignores: ['dist/**', 'node_modules/**', 'test/**', 'build.mjs', 'vitest.config.mts'] },
];
