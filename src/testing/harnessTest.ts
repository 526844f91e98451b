/**
 * The `test` every test of the repository starts from: Playwright's, plus an
 * automatic fixture that labels the test for the Allure report from what the
 * test already declares (its rules, project and file; src/reporting/allureMeta.ts).
 * Nothing to write in a test: import `test` from here instead of @playwright/test.
 */
import { test as base } from '@playwright/test';
import { relative, resolve, sep } from 'node:path';
import type { RuntimeMessage } from 'allure-js-commons/sdk';
import { getGlobalTestRuntimeWithAutoconfig, type TestRuntime } from 'allure-js-commons/sdk/runtime';
import { allureMetaFor } from '../reporting/allureMeta.ts';
import { ruleIdsOf } from './ruleTest.ts';
import { contextOptionFixtures } from './contextOptionDefaults.ts';
import { recordingsDir, targetName } from '../config/env.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** The target of this run, read without validating: a unit test may run with odd variables on purpose. */
function runTarget(): string {
  return targetName();
}

/**
 * allure-playwright's runtime sends each call as a message; `sendMessageSync` adds it to the result
 * without a Playwright step (its `sendMessage` is a step, and every step captures a source-mapped
 * stack). Asked by shape, not by class: the runtime may come from the package's other module format
 * (ESM beside this file's CommonJS).
 */
function sendsMessages(runtime: TestRuntime): runtime is TestRuntime & { sendMessageSync(message: RuntimeMessage): void } {
  return typeof (runtime as { sendMessageSync?: unknown }).sendMessageSync === 'function';
}

export const test = base.extend<{ allureLabels: void }>({
  // Plain values, not a fixture per option per test (why: ./contextOptionDefaults.ts).
  ...contextOptionFixtures(),
  allureLabels: [
    async ({}, use, testInfo) => {
      const meta = allureMetaFor(
        {
          project: testInfo.project.name,
          file: relative(ROOT, testInfo.file).split(sep).join('/'),
          title: testInfo.title,
          ruleIds: ruleIdsOf(testInfo.annotations),
        },
        runTarget(),
      );
      // Replays of different cassettes are different runs.
      const parameters = /^(record|replay)$/.test(runTarget()) ? [...meta.parameters, { name: 'recordings', value: recordingsDir() }] : meta.parameters;
      const { labels, links, description } = meta;
      const runtime = await getGlobalTestRuntimeWithAutoconfig();
      // One message, and no step: one Allure call per label, link and parameter, each a step, was a tenth of a media
      // test's CPU. A runtime that sends none is the no-op one.
      if (sendsMessages(runtime)) runtime.sendMessageSync({ type: 'metadata', data: { labels, links, parameters, ...(description ? { description } : {}) } });
      await use();
    },
    // No step of its own in the report (nor its cost): it is plumbing, and every test has it.
    { auto: true, box: 'self' },
  ],
});

export { expect } from '@playwright/test';
