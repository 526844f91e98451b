/**
 * The packaged pact-verify's console (src/reporters/PactVerifyReporter.ts): a message interaction that could not be
 * verified on this target is a "not verified" line that says it is a message, and why, once.
 */
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import PactVerifyReporter from '../../../src/reporters/PactVerifyReporter.ts';
import { MESSAGE_NOT_VERIFIED } from '../../../contracts/verification/pactProvider.ts';

test('a message interaction not verified on replay says so once, with the reason; it is counted as not verified', async ({}, testInfo) => {
  const lines: string[] = [];
  const reporter = new PactVerifyReporter({ outputLog: testInfo.outputPath('output.log'), print: (line) => lines.push(line) });
  const reason = `${MESSAGE_NOT_VERIFIED}: a live store's webhook delivery goes to the URL the app registered`;
  const skipped = {
    title: 'a product/created delivery',
    retries: 0,
    parent: { title: 'hooks → store-commerce-api' },
    annotations: [
      { type: 'pact message', description: 'Asynchronous/Messages' },
      { type: 'skip', description: reason },
    ],
  } as unknown as TestCase;
  reporter.onTestEnd(skipped, { status: 'skipped', retry: 0, errors: [] } as unknown as TestResult);
  await reporter.onEnd({ status: 'passed' } as never);
  expect(lines[0]).toBe(
    "  - hooks → store-commerce-api › a product/created delivery: not verified (a message interaction): a live store's webhook delivery goes to the URL the app registered",
  );
  expect(lines[1]).toBe('0 verified, 0 failed, 1 not verified');
});
