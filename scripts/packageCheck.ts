/**
 * `npm run package:check` (in .ci/run, after npm test): the harness as a team gets it. It packs the harness,
 * installs the tarball into a scratch copy of each example outside the checkout, and there runs what a team
 * runs: the example's own tests (its pact-js consumer test writes ./pacts; its code against startTwins()),
 * then `npx api-contract-harness pact-verify` on the pacts it wrote. It also checks that the pacts written are
 * the committed ones (examples/pacts, which npm test verifies), that a wrong expectation fails in a few
 * readable lines, and that a bad path exits 2. Prints a line per step, the install size, and
 * `package check: N passed, N failed`; writes reports/results/package-check.json for CI's closing line.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { oneMemberWrong } from './lib/oneMemberWrong.ts';
import { processEnv } from '../src/config/env.ts';
import { NEEDED_NODE, olderThanNeeded } from '../src/config/nodeVersion.ts';
import { writeCheckReport } from './summarize.ts';

/** The webhook handler's pact holds messages (deliveries): pact-verify matches them against the store twin's own. */
const EXAMPLES = [
  { name: 'store-product-sync', states: './pact-states.ts' },
  { name: 'media-library-reader', states: undefined },
  { name: 'store-webhook-handler', states: undefined },
] as const;
const COMMITTED_PACTS = resolve('examples/pacts');
/** Pacts of the other versions Pact's verifier reads, written by hand from Pact's specification (one passing, one failing interaction each). */
const VERSION_PACTS = resolve('tests/fixtures/pacts/versions');
/** Pacts as each Pact tool writes them, against the team's sandbox (literal ids, states in words, none): each must verify as written. */
const TOOL_PACTS = resolve('tests/fixtures/pacts/tools');
/** The one-wrong-field case's console must stay this short (it was thousands of lines). */
const MAX_FAILURE_CONSOLE_LINES = 40;

interface Step {
  readonly name: string;
  readonly ok: boolean;
  /** Not run, with the reason: counted as skipped, never as passed. */
  readonly skipped?: boolean;
  readonly detail: string;
}

/** Thrown by a step that could not check what it names here: the reason is its detail. */
class NotRun extends Error {}

const steps: Step[] = [];
const started = performance.now();

function step(name: string, check: () => string): boolean {
  const from = performance.now();
  let ok = true;
  let skipped = false;
  let detail: string;
  try {
    detail = check();
  } catch (error) {
    skipped = error instanceof NotRun;
    ok = skipped;
    detail = error instanceof Error ? error.message : String(error);
  }
  steps.push({ name, ok, ...(skipped ? { skipped } : {}), detail });
  console.log(
    `package check: ${skipped ? 'skip' : ok ? 'ok  ' : 'FAIL'} ${name} (${((performance.now() - from) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ''}`,
  );
  return ok;
}

/** Runs a command in `cwd`; answers its exit code and output (both streams). */
function run(command: string, args: readonly string[], cwd: string): { code: number; output: string } {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...processEnv(), CI: 'true', PACT_DO_NOT_TRACK: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status ?? 1, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

function expectExit(result: { code: number; output: string }, code: number, what: string): void {
  if (result.code !== code) throw new Error(`${what} exited ${result.code}, not ${code}:\n${result.output.split('\n').slice(-40).join('\n')}`);
}

/** Bytes under a folder, as `du -sb` counts them: links are not followed (node_modules/.bin), a file with two names counts once. */
function sizeOf(path: string, seen = new Set<string>()): number {
  const stat = lstatSync(path, { throwIfNoEntry: false, bigint: false });
  if (!stat) return 0;
  const inode = `${stat.dev}:${stat.ino}`;
  if (seen.has(inode)) return 0;
  seen.add(inode);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name), seen), 0);
}

const mb = (bytes: number): string => `${Math.round(bytes / 1e6)} MB`;

function packHarness(scratch: string): string {
  const packed = run('npm', ['pack', '--pack-destination', scratch], process.cwd());
  expectExit(packed, 0, 'npm pack');
  const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${scratch}`);
  return join(scratch, tarball);
}

/** A copy of the example outside the checkout, depending on the packed harness. */
function scratchCopy(name: string, tarball: string, scratch: string): string {
  const dir = join(scratch, name);
  cpSync(resolve('examples', name), dir, {
    recursive: true,
    filter: (source) => !/\/(node_modules|pacts|reports)(\/|$)/.test(source.slice(resolve('examples', name).length)),
  });
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  manifest.devDependencies['api-contract-harness'] = `file:${tarball}`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

/** The pact an example wrote, against the committed one (metadata aside: it names the pact-js version). */
function samePact(written: string, committed: string): void {
  const strip = (path: string) => {
    const { metadata: _, ...pact } = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    return pact;
  };
  if (!existsSync(committed)) throw new Error(`${committed} is not committed: copy ${written} there`);
  if (!isDeepStrictEqual(strip(written), strip(committed)))
    throw new Error(`the example's consumer tests write another pact than ${committed}: copy ${written} there (npm test verifies the committed one)`);
}

/** The product sync's first interaction expecting a member the products do not have: the team's wrong expectation. */
function withWrongField(pactFile: string, out: string): void {
  const pact = JSON.parse(readFileSync(pactFile, 'utf8')) as {
    interactions: { response: { body: { content: Record<string, unknown>[] }; matchingRules: { body: Record<string, unknown> } } }[];
  };
  const first = pact.interactions[0]!;
  first.response.body.content[0]!['stock'] = 5;
  first.response.matchingRules.body['$[*].stock'] = { combine: 'AND', matchers: [{ match: 'integer' }] };
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'wrong.json'), JSON.stringify(pact, null, 2));
}

/** The machine's own Node: the first on PATH outside node_modules (npm puts the project's node@24 pin first). */
function machineNode(): string | undefined {
  for (const dir of (processEnv().PATH ?? '').split(delimiter))
    if (dir && !dir.split(sep).includes('node_modules') && existsSync(join(dir, 'node'))) return join(dir, 'node');
  return undefined;
}

/**
 * A team without the pin, on an older Node (as on many CI images): the bin exits 2 with the one line naming the
 * Node found, the Node needed and the fix, whatever it was asked, and each entry point throws the same words.
 */
function olderNodeRefused(dir: string): string {
  const node = machineNode();
  const version = node ? run(node, ['--version'], dir).output.trim() : '';
  if (!node || !olderThanNeeded(version)) throw new NotRun(`this machine's Node (${node ?? 'none on PATH'} ${version}) is not older than ${NEEDED_NODE}`);
  const bin = join(dir, 'node_modules/.bin/api-contract-harness');
  const words = `needs Node ${NEEDED_NODE} or newer; this is Node ${version.replace(/^v/, '')}`;
  for (const args of [['--help'], ['pact-verify', '--pact', './pacts'], ['twins'], []]) {
    const refused = run(node, [bin, ...args], dir);
    expectExit(refused, 2, `api-contract-harness ${args.join(' ')} on Node ${version}`);
    if (!refused.output.includes(words) || !refused.output.includes('npm install --save-dev node@24'))
      throw new Error(`api-contract-harness ${args.join(' ')} on Node ${version} does not name the versions and the fix:\n${refused.output}`);
  }
  for (const entry of ['api-contract-harness/twins', 'api-contract-harness/states']) {
    const imported = run(node, ['--input-type=module', '-e', `await import('${entry}')`], dir);
    if (imported.code === 0 || !imported.output.includes(`${entry} ${words}`))
      throw new Error(`import('${entry}') on Node ${version} exited ${imported.code} without the refusal:\n${imported.output}`);
  }
  return `${node} ${version}: 4 commands exit 2, 2 entry points throw, each naming the fix`;
}

/** `--tarball <file>`: the harness as `npm pack` already packed it (.ci/run packs first); else it packs here. */
function main(argv: readonly string[]): number {
  const given = argv[0] === '--tarball' ? argv[1] : undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'harness-package-check-'));
  let tarball = '';
  /** A scratch project where the packed harness installed, for the steps that need no example of their own. */
  let installed: string | undefined;
  const pack = () => {
    tarball = given ? resolve(given) : packHarness(scratch);
    if (!existsSync(tarball)) throw new Error(`--tarball ${given}: no such file; run npm pack first`);
    return `${tarball.split('/').pop()}, ${(statSync(tarball).size / 1e3).toFixed(0)} kB`;
  };
  if (!step(given ? 'the tarball npm pack wrote (compiled into dist/ by prepare)' : 'npm pack (compiled into dist/ by prepare)', pack)) return finish(scratch);
  for (const example of EXAMPLES) {
    const dir = scratchCopy(example.name, tarball, scratch);
    const npx = (...args: string[]) => run('npx', ['--no-install', 'api-contract-harness', ...args], dir);
    if (
      !step(
        `${example.name}: npm install (the packed harness, outside the checkout)`,
        () => (expectExit(run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], dir), 0, 'npm install'), ''),
      )
    )
      continue;
    if (example.name === EXAMPLES[0].name) step(`${example.name}: the machine's own Node, when older, is refused loudly (no pin)`, () => olderNodeRefused(dir));
    installed ??= dir;
    step(`${example.name}: npm test (its pact-js consumer test writes ./pacts; its code against startTwins())`, () => {
      const tested = run('npm', ['test'], dir);
      expectExit(tested, 0, 'npm test');
      return /# pass (\d+)/.exec(tested.output)?.[0] ?? '';
    });
    const written = join(dir, 'pacts', readdirSync(join(dir, 'pacts'), { withFileTypes: true }).find((e) => e.name.endsWith('.json'))?.name ?? 'none.json');
    step(
      `${example.name}: the pact it writes is the committed one (examples/pacts)`,
      () => (samePact(written, join(COMMITTED_PACTS, written.split('/').pop()!)), ''),
    );
    if (example.name === 'store-webhook-handler') webhookHandlerSteps(dir);
    step(`${example.name}: npx api-contract-harness pact-verify --pact ./pacts${example.states ? ` --states ${example.states}` : ''}`, () => {
      const from = performance.now();
      const verified = npx('pact-verify', '--pact', './pacts', ...(example.states ? ['--states', example.states] : []));
      expectExit(verified, 0, 'pact-verify');
      if (!existsSync(join(dir, 'reports/api-contract-harness/junit'))) throw new Error('no JUnit report in ./reports/api-contract-harness/junit');
      return `${/(\d+) verified/.exec(verified.output)?.[0] ?? '?'} in ${((performance.now() - from) / 1000).toFixed(1)} s`;
    });
    if (example.name !== 'store-product-sync') continue;
    step(`${example.name}: one wrong field fails in at most ${MAX_FAILURE_CONSOLE_LINES} readable lines`, () => {
      withWrongField(written, join(dir, 'wrong-pacts'));
      const failed = npx('pact-verify', '--pact', './wrong-pacts', '--states', example.states!, '--out', 'reports/wrong');
      expectExit(failed, 1, 'pact-verify on the wrong pact');
      const lines = failed.output.trimEnd().split('\n');
      if (lines.length > MAX_FAILURE_CONSOLE_LINES) throw new Error(`${lines.length} console lines:\n${failed.output}`);
      for (const expected of ['$[*].stock: missing in 30 of 30 items', 'Who acts: the consumer', '(interaction 1 of 2 in ./wrong-pacts/wrong.json)'])
        if (!failed.output.includes(expected)) throw new Error(`the console does not say "${expected}":\n${failed.output}`);
      return `${lines.length} console lines`;
    });
    step(`${example.name}: a states file that does not exist exits 2 before any request, naming the path`, () => {
      const refused = npx('pact-verify', '--pact', './pacts', '--states', './no-such-states.ts');
      expectExit(refused, 2, 'pact-verify --states ./no-such-states.ts');
      if (!refused.output.includes(join(dir, 'no-such-states.ts')))
        throw new Error(`the message does not name ${join(dir, 'no-such-states.ts')}:\n${refused.output}`);
      return '';
    });
    step(`${example.name}: nothing was written inside node_modules/api-contract-harness`, () => {
      const installed = join(dir, 'node_modules/api-contract-harness');
      const stray = ['reports', 'recordings', 'dist/reports'].filter((name) => existsSync(join(installed, name)));
      if (stray.length > 0) throw new Error(`found ${stray.join(', ')} under ${installed}`);
      const all = sizeOf(join(dir, 'node_modules'));
      const pin = sizeOf(join(dir, 'node_modules/node'));
      return `install size ${mb(all - pin)} with every dependency (${mb(all)} with the team's node@24 pin)`;
    });
  }
  if (installed) {
    pactVersionSteps(installed);
    toolPactSteps(installed);
  }
  return finish(scratch);
}

/** `webhooks check` against the team's handler passes, and against one that skips the signature fails, naming the checks. */
function webhookHandlerSteps(dir: string): void {
  step('store-webhook-handler: npm run webhooks:check (npx api-contract-harness webhooks check against its handler)', () => {
    const checked = run('npm', ['run', 'webhooks:check'], dir);
    expectExit(checked, 0, 'webhooks check');
    const verdict = /webhooks check: (\d+) passed, 0 failed/.exec(checked.output);
    if (!verdict) throw new Error(`no verdict line in:\n${checked.output}`);
    return verdict[0];
  });
  step('store-webhook-handler: a handler that skips the signature fails webhooks check, exit 1', () => {
    const failed = run('npm', ['run', 'webhooks:check', '--', '--insecure'], dir);
    expectExit(failed, 1, 'webhooks check of the insecure handler');
    for (const expected of ['FAIL a wrong signature is not answered 2xx', 'FAIL a missing signature is not answered 2xx'])
      if (!failed.output.includes(expected)) throw new Error(`the check does not say "${expected}":\n${failed.output}`);
    return '2 failed, as they should';
  });
}

// --- Pact versions and message pacts (contracts/verification/pactFile.ts, verifyMessage.ts) -----------------------

/** What a team must never read: the harness's own projects, scripts and folders (tests/unit/pact/teamMessages.test.ts says the same in process). */
const HARNESS_WORDS = ['npm run', 'contracts-consumer', 'contracts-outside', 'contracts/pacts', 'src/', 'pact:verify'];

/** Each versions fixture through the installed package: the passing interaction verified, the failing one in its short account. */
function pactVersionSteps(dir: string): void {
  cpSync(VERSION_PACTS, join(dir, 'pact-versions'), { recursive: true });
  const cases = [
    {
      what: 'a V2 pact (providerState, $.body matchers)',
      file: 'anime-widget-v2-media-tracking-api.json',
      says: [
        '✓ anime-widget-v2 → media-tracking-api › a request for one anime, its title and episode count',
        '$.data.attributes.streamingUrl: missing',
        'Who acts: the consumer',
      ],
    },
    {
      what: 'a V3 pact (providerStates with params, matchers by category)',
      file: 'price-watcher-v3-store-commerce-api.json',
      says: [
        "✓ price-watcher-v3 → store-commerce-api › a request for the prices of a store's products",
        '$[*].stock: missing in 3 of 3 items',
        'Who acts: the consumer',
      ],
    },
    {
      what: "a V3 message pact, against the store twin's real webhook delivery",
      file: 'product-webhooks-v3-store-commerce-api.json',
      says: ['✓ product-webhooks-v3 → store-commerce-api › a product/created delivery', '$.name: missing', 'The delivery holds:', 'Who acts: the consumer'],
    },
    {
      what: 'a V4 pact of HTTP and message interactions',
      file: 'product-webhook-handler-store-commerce-api.json',
      says: [
        '› a request for the product a delivery names',
        '✓ product-webhook-handler → store-commerce-api › a product/created delivery',
        '$.name: missing',
        '2 verified, 1 failed',
      ],
    },
  ];
  for (const { what, file, says } of cases) {
    step(`pact versions: ${what}, through the installed package (npx api-contract-harness pact-verify --pact ./pact-versions/${file})`, () => {
      const { code, output } = run(
        'npx',
        ['--no-install', 'api-contract-harness', 'pact-verify', '--pact', `./pact-versions/${file}`, '--out', `reports/${file}`],
        dir,
      );
      expectExit({ code, output }, 1, `pact-verify on ${file} (one interaction fails on purpose)`);
      for (const expected of says) if (!output.includes(expected)) throw new Error(`the console does not say "${expected}":\n${output}`);
      const harness = HARNESS_WORDS.filter((word) => output.includes(word));
      if (harness.length > 0) throw new Error(`the console speaks of the harness's own ${harness.join(', ')}:\n${output}`);
      return /\d+ verified, \d+ failed, \d+ not verified/.exec(output)?.[0] ?? '';
    });
  }
}

/**
 * The pacts each Pact tool writes (pact-jvm, pact-python, pact-go, pact-js 9 and 13, PactNet, the V1.1 example), with
 * literal ids, states in words and without: every interaction verified as written; then a copy of each with one
 * member wrong: that interaction fails with the short account, every other one still verified.
 */
function toolPactSteps(dir: string): void {
  const files = readdirSync(TOOL_PACTS).filter((file) => file.endsWith('.json'));
  cpSync(TOOL_PACTS, join(dir, 'tool-pacts'), { recursive: true });
  const interactions = files.reduce(
    (sum, file) => sum + (JSON.parse(readFileSync(join(TOOL_PACTS, file), 'utf8')) as { interactions: unknown[] }).interactions.length,
    0,
  );
  step(
    `tool pacts: ${files.length} pacts as each Pact tool writes them, verified as written (npx api-contract-harness pact-verify --pact ./tool-pacts)`,
    () => {
      const result = run('npx', ['--no-install', 'api-contract-harness', 'pact-verify', '--pact', './tool-pacts', '--out', 'reports/tool-pacts'], dir);
      expectExit(result, 0, 'pact-verify on the tool pacts');
      const counts = `${interactions} verified, 0 failed, 0 not verified`;
      if (!result.output.includes(counts)) throw new Error(`the console does not say "${counts}":\n${result.output}`);
      return counts;
    },
  );
  const wrongDir = join(dir, 'tool-pacts-wrong');
  mkdirSync(wrongDir, { recursive: true });
  const changed = files.map((file) => {
    const pact = JSON.parse(readFileSync(join(TOOL_PACTS, file), 'utf8')) as Parameters<typeof oneMemberWrong>[0];
    const wrong = oneMemberWrong(pact);
    writeFileSync(join(wrongDir, file), JSON.stringify(pact, null, 2));
    return wrong;
  });
  step(`tool pacts: a copy of each with one member wrong fails that interaction alone, with the short account (--pact ./tool-pacts-wrong)`, () => {
    const result = run(
      'npx',
      ['--no-install', 'api-contract-harness', 'pact-verify', '--pact', './tool-pacts-wrong', '--out', 'reports/tool-pacts-wrong'],
      dir,
    );
    expectExit(result, 1, 'pact-verify on the one-member-wrong copies');
    const counts = `${interactions - files.length} verified, ${files.length} failed, 0 not verified`;
    if (!result.output.includes(counts)) throw new Error(`the console does not say "${counts}":\n${result.output}`);
    for (const { description, member } of changed) {
      const failed = result.output.split('\n').findIndex((line) => line.includes('✘') && line.includes(`› ${description}`));
      const account = result.output
        .split('\n')
        .slice(failed, failed + 12)
        .join('\n');
      if (failed < 0 || !account.includes('Who acts:'))
        throw new Error(`"${description}" (${member} made wrong) did not fail with the short account:\n${result.output}`);
    }
    return counts;
  });
}

// --- end of the Pact versions and message pacts steps ----------------------------------------------------------------

function finish(scratch: string): number {
  const skipped = steps.filter((s) => s.skipped).length;
  const passed = steps.filter((s) => s.ok).length - skipped;
  const failed = steps.length - passed - skipped;
  writeCheckReport('package-check', { passed, failed, skipped }, { steps });
  console.log(
    `package check: ${passed} passed, ${failed} failed, ${skipped} skipped in ${((performance.now() - started) / 1000).toFixed(0)} s (scratch projects in ${scratch})`,
  );
  if (failed === 0) rmSync(scratch, { recursive: true, force: true });
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
