/**
 * The `test` every test of the repository starts from: Playwright's, plus an
 * automatic fixture that labels the test for the Allure report from what the
 * test already declares (its rules, project and file; src/reporting/allureMeta.ts).
 * Nothing to write in a test: import `test` from here instead of @playwright/test.
 */
import { test as base } from '@playwright/test';
import { relative, resolve, sep } from 'node:path';
import * as allure from 'allure-js-commons';
import { allureMetaFor } from '../reporting/allureMeta.ts';
import { ruleIdsOf } from './ruleTest.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** The target of this run, read without validating: a unit test may run with odd variables on purpose. */
function runTarget(): string {
  return process.env.HARNESS_TARGET?.trim() || 'mock';
}

export const test = base.extend<{ allureLabels: void }>({
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
      await allure.labels(...meta.labels);
      if (meta.links.length > 0) await allure.links(...meta.links);
      for (const { name, value } of meta.parameters) await allure.parameter(name, value);
      // Two replays of different cassettes (npm test replays its own recording and the shipped one) are different runs.
      if (/^(record|replay)$/.test(runTarget())) await allure.parameter('recordings', process.env.RECORDINGS_DIR?.trim() || 'recordings');
      if (meta.description) await allure.description(meta.description);
      await use();
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
