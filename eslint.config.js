// Lint: typescript-eslint's recommended rules plus the house rules that keep
// tests honest (no focused tests, no empty test bodies).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test-results/'] },
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
      // Every test starts from the harness's own `test`, which labels it for the Allure report.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: 'Import test from src/testing/harnessTest.ts: it labels the test for the Allure report (epic, feature, story, target).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/testing/harnessTest.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
