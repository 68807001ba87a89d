/**
 * n8n's community package scan, run offline on a local folder (the unpacked `pnpm pack` tarball, or the
 * package source).
 *
 * The rule set is the one @n8n/scan-community-package 0.32.0 applies (its `buildScanConfig`): the
 * community-nodes plugin's `recommended` config, `no-console`, and eslint-plugin-n8n-nodes-base's
 * community (package.json), credentials and nodes rule sets with the same rules switched off. The
 * scanner's own CLI cannot be used here: it downloads the package from the npm registry (ours is not
 * published) and, as published, it crashes at start (it pins typescript 7.0.2, which
 * @typescript-eslint/typescript-estree cannot load). So the same configuration is built here from the
 * plugins that @n8n/node-cli (a devDependency of nodes/) installs.
 */
import { createRequire } from 'node:module';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';

/** The scanner's file sets: the tarball leg lints compiled JS and package.json; the source leg this. */
export const TARBALL_PATTERNS = ['**/*.js', 'package.json'];
export const SOURCE_PATTERNS = ['package.json', '{nodes,credentials}/**/*.{js,ts,json}'];

export async function scanPackage(root, dir, patterns) {
  // Resolve from node-cli's real folder: pnpm keeps a package's own dependencies beside its real path.
  const fromCli = createRequire(
    realpathSync(join(root, 'nodes', 'node_modules', '@n8n', 'node-cli', 'package.json')),
  );
  const { ESLint } = fromCli('eslint');
  const { n8nCommunityNodesPlugin } = await import(fromCli.resolve('@n8n/eslint-plugin-community-nodes'));
  const n8nNodesPlugin = fromCli('eslint-plugin-n8n-nodes-base');
  const parser = fromCli('typescript-eslint').parser;
  const fg = fromCli('fast-glob');

  const config = [
    n8nCommunityNodesPlugin.configs.recommended,
    { rules: { 'no-console': 'error' } },
    { plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
    { files: ['package.json'], rules: { ...n8nNodesPlugin.configs.community.rules } },
    {
      files: ['**/credentials/**/*.ts'],
      rules: {
        ...n8nNodesPlugin.configs.credentials.rules,
        'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
        'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
      },
    },
    {
      files: ['**/nodes/**/*.ts'],
      rules: {
        ...n8nNodesPlugin.configs.nodes.rules,
        'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
        'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
        'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
      },
    },
    { files: ['**/*.json'], languageOptions: { parser } },
    { files: ['**/*.ts'], languageOptions: { parser } },
  ];

  const eslint = new ESLint({
    cwd: dir,
    allowInlineConfig: false,
    overrideConfigFile: true,
    overrideConfig: config,
  });
  const files = fg.sync(patterns, {
    cwd: dir,
    absolute: true,
    ignore: ['node_modules/**', '**/package-lock.json'],
  });
  if (files.length === 0) return { passed: false, files: 0, report: 'no files found to scan' };
  const results = await eslint.lintFiles(files);
  const errors = results.reduce((n, r) => n + r.errorCount, 0);
  const warnings = results.reduce((n, r) => n + r.warningCount, 0);
  const formatter = await eslint.loadFormatter('stylish');
  return {
    passed: errors === 0,
    files: files.length,
    errors,
    warnings,
    report: await formatter.format(results),
  };
}
