/**
 * Small live runs of the live-safety tests (../liveRunSafety.test.ts): the
 * real store and media fixtures on HARNESS_TARGET=live against a twin
 * process the test started. The samples
 * fail and leave things behind on purpose, so the config refuses any store but
 * a loopback one. Not part of any project of playwright.config.ts.
 */
import { defineConfig } from '@playwright/test';
import { resolve } from 'node:path';
import { harnessConfig, isLoopbackHost } from '../../../../src/config/harnessConfig.ts';

process.env.PACT_DO_NOT_TRACK = 'true';
const output = process.env.SAMPLE_OUTPUT;
if (!output) throw new Error('sample.config.ts: set SAMPLE_OUTPUT to the directory the sample run writes to.');
const { store } = harnessConfig();
if (store.mode !== 'live' || !isLoopbackHost(new URL(store.apiUrl).hostname)) {
  throw new Error(
    'sample.config.ts: these samples fail and leak on purpose; run them only with HARNESS_TARGET=live against a twin process on a loopback host.',
  );
}

export default defineConfig({
  reporter: [['json', { outputFile: `${output}/report.json` }], [resolve(import.meta.dirname, '../../../../src/reporters/RequestBudgetReporter.ts')]],
  outputDir: `${output}/test-output`,
  workers: 1,
  timeout: 30_000,
  projects: [
    { name: 'store', testDir: '.', testMatch: '*.store.sample.ts' },
    { name: 'media', testDir: '.', testMatch: '*.media.sample.ts' },
  ],
});
