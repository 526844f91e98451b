/**
 * Verifies pacts from outside the harness, a team's own consumer's, against
 * the target (twins, live, or live recorded or replayed) with the same guards
 * as the harness's own pacts: one test per interaction, Pact's mismatch report
 * attached. What to verify is this run's plan (outsidePacts.ts): the files
 * `npm run pact:verify -- --pact` or `--broker` named, or in npm test the
 * examples' pacts and the held-out ones. A team's states file adds to the
 * vocabulary (teamStates.ts).
 */
import { declarePactVerification } from './declarePactVerification.ts';
import { outsideDeclarations } from './outsideDeclared.ts';
import { readPlan } from './outsidePacts.ts';
import { test } from '../../src/testing/harnessTest.ts';
import { writeOutcome } from '../broker/verificationResults.ts';

const plan = readPlan();
const declare = outsideDeclarations(plan);
for (const pact of plan.pacts) {
  const { names, api, target, options } = declare(pact);
  declarePactVerification(names, api, target, options);
}

// Each interaction's outcome, for the results a broker run publishes (verificationResults.ts).
test.afterEach(({}, testInfo) => {
  const [pact, description] = testInfo.titlePath.slice(-2);
  const status = testInfo.status === 'passed' ? 'passed' : testInfo.status === 'skipped' ? 'skipped' : 'failed';
  const reason = status === 'failed' ? testInfo.error?.message : testInfo.annotations.find((a) => a.type === 'skip')?.description;
  writeOutcome({ pact: pact!, description: description!, status, ...(reason ? { reason } : {}) });
});
