// Lint: typescript-eslint's recommended rules plus the house rules that keep
// tests honest (no focused tests, no empty test bodies), and the declared
// layering of the folders (LAYERS), checked on every import.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Every test starts from the harness's own `test`, which labels it for the Allure report.
const HARNESS_TEST = {
  name: '@playwright/test',
  importNames: ['test'],
  message: 'Import test from src/testing/harnessTest.ts: it labels the test for the Allure report (epic, feature, story, target).',
};

// An ES import of node:http loads Node's own copy of undici (src/http/nodeHttp.ts says why that matters): types only.
const NODE_HTTP = {
  name: 'node:http',
  allowTypeImports: true,
  message:
    "Import createServer, request and STATUS_CODES from src/http/nodeHttp.ts: an ES import of node:http loads Node's own undici. Types may come from node:http.",
};

/**
 * Which folder may import which, in the manner of Playwright's DEPS.list: each
 * layer names the folders its files must not import. docs/architecture.md draws
 * the same picture; tests/unit/lint/layering.test.ts shows each line refusing.
 */
export const LAYERS = [
  // The product imports nothing from the tests, the commands or the benches that use it.
  { files: ['src/**'], mayNotImport: ['suites', 'properties', 'contracts', 'tests', 'scripts', 'bench'] },
  // The configuration is read first and depends on nothing of the harness.
  { files: ['src/config/**'], mayNotImport: ['suites', 'properties', 'contracts', 'tests', 'scripts', 'bench', 'src'], leaveFolder: false },
  // What checks a provider uses the product, never the harness's own tests or commands.
  { files: ['suites/**', 'properties/**', 'contracts/**'], mayNotImport: ['tests', 'scripts', 'bench'] },
  { files: ['scripts/**', 'bench/**'], mayNotImport: ['tests'] },
  // The runner's configuration reads the product's configuration only.
  { files: ['playwright.config.ts'], mayNotImport: ['suites', 'properties', 'contracts', 'tests', 'scripts', 'bench'] },
];

/** no-restricted-imports options for one layer: the harness-test rule everywhere, plus the layer's folders. */
function importsOf(layer) {
  const folders = layer.mayNotImport.map((folder) => `**/${folder}/**`);
  const patterns = [
    { group: folders, message: `${layer.files.join(', ')} may not import from ${layer.mayNotImport.join(', ')} (LAYERS in eslint.config.js).` },
  ];
  // Leaving the folder at all: any relative import that goes up out of it.
  if (layer.leaveFolder === false)
    patterns.push({ group: ['../*', '../**'], message: `${layer.files.join(', ')} imports nothing above its own folder (LAYERS in eslint.config.js).` });
  return ['error', { paths: [HARNESS_TEST, NODE_HTTP], patterns }];
}

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test-results/', 'dist/', 'examples/*/node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      'no-empty-pattern': 'off', // Playwright fixtures take `{}` when they use no other fixture.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'test', property: 'only', message: 'A focused test hides the rest of the suite.' },
        { object: 'describe', property: 'only', message: 'A focused suite hides the rest.' },
      ],
      'no-restricted-imports': ['error', { paths: [HARNESS_TEST] }],
    },
  },
  ...LAYERS.map((layer) => ({ files: layer.files, rules: { 'no-restricted-imports': importsOf(layer) } })),
  // The environment is read in src/config only (src/config/env.ts names each variable); tests set it up for what they test.
  {
    ignores: ['src/config/**', 'tests/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read the environment in src/config only: use a reader of src/config/env.ts (or processEnv() for an env parameter or a child process).',
        },
      ],
    },
  },
  {
    files: ['src/testing/harnessTest.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
