/**
 * How a message names the harness's commands and pages to whoever reads it. A team runs the installed
 * package (`npx api-contract-harness pact-verify`, HARNESS_CONSOLE=pact-verify): its messages speak of the
 * team's project, never of the harness's own scripts, projects or folders. An engineer in the harness's
 * checkout runs `npm run pact:verify`, and reads the checkout's words.
 */
import { pactVerifyConsole } from '../../src/config/env.ts';

export interface CommandWords {
  /** The verification command, ready for its flags. */
  readonly verify: string;
  /** What starts each line the command itself prints. */
  readonly prefix: string;
  /** Where the provider states are documented, from where the reader stands. */
  readonly statesDoc: string;
  /** The command that records what a replay reads. */
  readonly record: string;
}

export function commandWords(team = pactVerifyConsole()): CommandWords {
  return team
    ? {
        verify: 'npx api-contract-harness pact-verify',
        prefix: 'pact-verify',
        statesDoc: 'provider-states.md in the api-contract-harness package',
        record: 'npx api-contract-harness pact-verify --target record --pact <your pacts>',
      }
    : { verify: 'npm run pact:verify --', prefix: 'pact:verify', statesDoc: 'docs/provider-states.md', record: 'npm run record' };
}

/** A message written for the checkout (a configuration error names `npm run record`), in the reader's words. */
export function inReadersWords(message: string, words = commandWords()): string {
  return message
    .replaceAll('npm run record', words.record)
    .replaceAll('npm run pact:verify --', words.verify)
    .replaceAll('docs/provider-states.md', words.statesDoc);
}
