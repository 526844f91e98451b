#!/usr/bin/env node
/**
 * The package's bin (`npx api-contract-harness`). It checks the running Node before it loads the harness:
 * on an older one it prints one line (the Node found, the Node needed, the fix) and exits 2, so a CI
 * step on an old image is red, never green by accident. Only then does it load the commands (scripts/cli.ts).
 */
import { nodeVersionProblem } from '../src/config/nodeVersion.ts';

const USAGE_EXIT = 2;
const problem = nodeVersionProblem('api-contract-harness');
if (problem) {
  console.error(problem);
  process.exitCode = USAGE_EXIT;
} else {
  const { cli } = await import('./cli.ts');
  process.exitCode = await cli(process.argv.slice(2));
}
