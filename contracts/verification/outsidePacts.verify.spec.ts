/**
 * Verifies pacts from outside the harness, a team's own consumer's, against
 * the target (twins, live, or live recorded or replayed) with the same guards
 * as the harness's own pacts: one test per interaction, Pact's mismatch report
 * attached. What to verify is this run's plan (outsidePacts.ts): the files
 * `npm run pact:verify -- --pact` or `--broker` named, or in npm test the
 * examples' pacts and the held-out ones. A team's states file adds to the
 * vocabulary (teamStates.ts).
 */
import { dirname } from 'node:path';
import { pactVerifyConsole } from '../../src/config/env.ts';
import { slug } from '../../src/recording/cassette.ts';
import { apiTarget } from './apiTargets.ts';
import { declarePactVerification } from './declarePactVerification.ts';
import { readPlan } from './outsidePacts.ts';
import { loadTeamStates, withTeamStates, type TeamStates } from './teamStates.ts';
import { test } from '../../src/testing/harnessTest.ts';
import { writeOutcome } from '../broker/verificationResults.ts';

const plan = readPlan();
let team: Promise<TeamStates> | undefined;
const teamStates = () => (team ??= plan.statesFile ? loadTeamStates(plan.statesFile) : Promise.resolve({}));

for (const pact of plan.pacts) {
  declarePactVerification(
    { consumer: pact.consumer, provider: pact.provider, dir: dirname(pact.path), path: pact.path },
    pact.api,
    async () => {
      const target = apiTarget(pact.api);
      return 'skip' in target ? target : withTeamStates(target, pact.api, await teamStates());
    },
    {
      title: pact.title,
      // An outside consumer's recordings are its own: recordings/<api>/outside/<consumer>/<interaction>.
      suite: `outside/${slug(pact.consumer)}`,
      recordWith: pactVerifyConsole()
        ? `HARNESS_TARGET=record npx api-contract-harness pact-verify --pact ${pact.path} (into RECORDINGS_DIR, default ./recordings/api-contract-harness)`
        : `HARNESS_TARGET=record npm run pact:verify -- --pact ${pact.path} (into RECORDINGS_DIR, default recordings/)`,
      wholeFile: false,
    },
  );
}

// Each interaction's outcome, for the results a broker run publishes (verificationResults.ts).
test.afterEach(({}, testInfo) => {
  const [pact, description] = testInfo.titlePath.slice(-2);
  const status = testInfo.status === 'passed' ? 'passed' : testInfo.status === 'skipped' ? 'skipped' : 'failed';
  const reason = status === 'failed' ? testInfo.error?.message : testInfo.annotations.find((a) => a.type === 'skip')?.description;
  writeOutcome({ pact: pact!, description: description!, status, ...(reason ? { reason } : {}) });
});
