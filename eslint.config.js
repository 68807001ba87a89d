import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // nodes/ is linted by n8n's own rules in nodes/eslint.config.mjs (@n8n/node-cli's config, run by
    // scripts/suites/n8n-e2e.mjs): it registers its own typescript-eslint plugin instance, which ESLint
    // refuses to mix with this file's ("Cannot redefine plugin @typescript-eslint").
    ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '.cache/**', '**/coverage/**', 'nodes/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
