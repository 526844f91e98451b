/**
 * How an outside consumer's pact is verified, whichever runs it (the light run, runPactPlan.ts; npm test's
 * Playwright project, outsidePacts.verify.spec.ts): against this run's target with the team's states, its
 * recordings in a folder of their own, and the command that records them named when a replay finds none.
 */
import { pactVerifyConsole } from '../../src/config/env.ts';
import { slug } from '../../src/recording/cassette.ts';
import { apiTarget } from './apiTargets.ts';
import { outsidePactNames, type OutsidePact, type VerificationPlan } from './outsidePacts.ts';
import { loadTeamStates, withTeamStates, type TeamStates } from './teamStates.ts';
import type { Declared } from './verifyListed.ts';

/** The command that records an outside consumer's interactions, in the reader's words. */
function recordCommand(pact: OutsidePact): string {
  return pactVerifyConsole()
    ? `HARNESS_TARGET=record npx api-contract-harness pact-verify --pact ${pact.path} (into RECORDINGS_DIR, default ./recordings/api-contract-harness)`
    : `HARNESS_TARGET=record npm run pact:verify -- --pact ${pact.path} (into RECORDINGS_DIR, default recordings/)`;
}

/** Each pact of the plan as verifyListed.ts takes it; the team's states file loads once, when first needed. */
export function outsideDeclarations(plan: VerificationPlan): (pact: OutsidePact) => Declared {
  let team: Promise<TeamStates> | undefined;
  const teamStates = () => (team ??= plan.statesFile ? loadTeamStates(plan.statesFile) : Promise.resolve({}));
  return (pact) => ({
    names: outsidePactNames(pact),
    api: pact.api,
    target: async () => {
      const target = apiTarget(pact.api, pact.consumer);
      return 'skip' in target ? target : withTeamStates(target, pact.api, await teamStates());
    },
    // An outside consumer's recordings are its own: recordings/<api>/outside/<consumer>/<interaction>.
    options: { title: pact.title, suite: `outside/${slug(pact.consumer)}`, recordWith: recordCommand(pact), wholeFile: false },
  });
}
