/**
 * An unreachable provider is an outage, not a verdict, shown in a real live run of each API (npm run verify's
 * console, the real Playwright config and reporters): a twin process reached through a loopback proxy that
 * answers the first requests and then closes its listener (tests/unit/live/stoppingProvider.ts; where it stops is
 * a count, not a timer). The run must say the outage once, naming the API, the host and when it stopped; skip
 * every test it kept from verifying with that reason; fail no test and no rule, name no consumer; file it in the
 * report's own category and on its front page; end within seconds of the decision; and exit 1 for that reason.
 * - media: its pacts first (Pact's Verifier through the front, verifierFront.ts), cut after 2 requests: the interactions
 *   after the cut and every media suite test are not verified; the store's tests of the same run keep their
 *   verdicts (the outage is the media origin's alone).
 * - store: its suites, cut in the middle: the tests before the cut keep their verdicts, the rest are not verified.
 * The detector alone, with its retry budget: tests/unit/http/providerOutage.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { RECORDING_PLAN, signInOnMediaTwin, startTwinProcess, stopTwinProcess, twinAsLiveEnv } from '../../../scripts/lib/twinProcess.ts';
import { freePort } from '../../../src/http/freePort.ts';
import { dependencyFile } from '../../../src/config/harnessRoot.ts';
import { LEDGER_VARIABLE } from '../../../src/testing/LiveRequestGuard.ts';
import { OUTAGE_BUDGET, OUTAGE_FILE_VARIABLE } from '../../../src/http/providerOutage.ts';
import { PROVIDER_UNREACHABLE, UNREACHABLE_REASON_START } from '../../../src/testing/providerUnreachable.ts';
import { PROVIDER_UNREACHABLE_MESSAGE } from '../../../src/reporting/categories.ts';
import { startStoppingProvider } from './stoppingProvider.ts';
import { SLOW_CHECKS_VARIABLE, variable } from '../../../src/config/env.ts';

const USER_AGENT = 'api-contract-harness outage test (https://example.invalid/api-contract-harness)';

interface JsonTest {
  projectName: string;
  status: string;
  results: { status: string; duration: number; annotations?: { type: string; description?: string }[] }[];
}
interface JsonSuite {
  suites?: JsonSuite[];
  specs?: { title: string; file: string; tests: JsonTest[] }[];
}
interface RunTest {
  title: string;
  file: string;
  project: string;
  status: string;
  durationMs: number;
  annotations: { type: string; description?: string }[];
}

function testsOf(suites: readonly JsonSuite[] = []): RunTest[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((t) => ({
        title: spec.title,
        file: spec.file,
        project: t.projectName,
        status: t.results.at(-1)?.status ?? 'not run',
        durationMs: t.results.at(-1)?.duration ?? 0,
        annotations: t.results.at(-1)?.annotations ?? [],
      })),
    ),
    ...testsOf(suite.suites),
  ]);
}

/** A live run of `files` as npm run verify runs it; each line of output with the time it came (ms since the start). */
function liveRun(args: string[], env: Record<string, string>): Promise<{ code: number | null; lines: { at: number; text: string }[]; ms: number }> {
  // This run's own target, ledger and outage file, not the ones of the run this test is part of.
  const {
    HARNESS_TARGET: _t,
    HARNESS_RUN_NAME: _r,
    CI: _ci,
    [LEDGER_VARIABLE]: _l,
    [OUTAGE_FILE_VARIABLE]: _o,
    HARNESS_CONSOLE: _c,
    HARNESS_VERIFY_APIS: _a,
    ...inherited
  } = process.env;
  const started = performance.now();
  const lines: { at: number; text: string }[] = [];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [dependencyFile('@playwright/test/cli'), 'test', ...args], {
      env: { ...inherited, PACT_DO_NOT_TRACK: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let pending = '';
    const take = (chunk: Buffer) => {
      const text = pending + chunk.toString('utf8');
      const parts = text.split('\n');
      pending = parts.pop()!;
      for (const line of parts) lines.push({ at: performance.now() - started, text: line });
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      if (pending) lines.push({ at: performance.now() - started, text: pending });
      resolve({ code, lines, ms: performance.now() - started });
    });
  });
}

interface Case {
  readonly api: 'store' | 'media';
  /** Requests the provider answers before it goes. */
  readonly answered: number;
  readonly files: readonly string[];
  readonly projects: readonly string[];
}

const CASES: readonly Case[] = [
  {
    api: 'media',
    answered: 2,
    files: ['contracts/media/verify.pact.spec.ts', 'suites/media/errors.spec.ts', 'suites/store/authentication.spec.ts'],
    projects: ['contracts-verify', 'store', 'media'],
  },
  { api: 'store', answered: 8, files: ['suites/store/authentication.spec.ts', 'suites/store/localization.spec.ts'], projects: ['store'] },
];

test.describe.configure({ mode: 'parallel' });
// Two real live runs take half a minute: they run in npm run robustness:check (.ci/run, after the gate), not in it.
test.skip(variable(SLOW_CHECKS_VARIABLE) !== '1', `a live run per API (half a minute): npm run robustness:check runs it (${SLOW_CHECKS_VARIABLE}=1)`);

for (const { api, answered, files, projects } of CASES) {
  test(`the ${api} API stops answering in the middle of a live run: said once, its tests not verified, no test or rule failed, the run exits 1 soon after`, async () => {
    test.setTimeout(90_000);
    const dir = mkdtempSync(join(tmpdir(), `outage-${api}-`));
    const [storePort, mediaPort] = [await freePort(), await freePort()];
    const twin = await startTwinProcess(storePort, mediaPort, 'ignore', RECORDING_PLAN);
    const stopping = await startStoppingProvider(`http://127.0.0.1:${api === 'store' ? storePort : mediaPort}`, answered);
    try {
      const direct = (port: number) => `http://127.0.0.1:${port}`;
      const env = twinAsLiveEnv({
        storeUrl: api === 'store' ? stopping.url : direct(storePort),
        mediaUrl: `${api === 'media' ? stopping.url : direct(mediaPort)}/api/edge`,
        mediaToken: await signInOnMediaTwin(mediaPort),
        userAgent: USER_AGENT,
      });
      const run = await liveRun([...projects.map((p) => `--project=${p}`), ...files], {
        ...env,
        HARNESS_TARGET: 'live',
        HARNESS_CONSOLE: 'verify',
        HARNESS_PACTS: 'committed',
        HARNESS_REPORTS_DIR: dir,
        HARNESS_RUN_NAME: `outage-${api}`,
      });
      const output = run.lines.map((l) => l.text).join('\n');
      const report = join(dir, 'results', `outage-${api}.json`);
      expect(existsSync(report), `the run wrote its report:\n${output}`).toBe(true);
      const tests = testsOf((JSON.parse(readFileSync(report, 'utf8')) as { suites: JsonSuite[] }).suites);

      // Said once: the API, the host (never a token) and when it stopped, as it happened.
      const host = new URL(stopping.url).host;
      const said = run.lines.filter((l) => l.text.startsWith(`provider unreachable: the ${api} API at ${host} stopped answering at `));
      expect(said, output).toHaveLength(1);
      expect(said[0]!.text).toMatch(
        / at \d\d:\d\d:\d\d UTC \((connection refused|connection closed|connection reset)\); the tests it keeps from verifying are not verified$/,
      );
      expect(output).not.toContain(env.STORE_ACCESS_TOKEN!);
      expect(output).not.toContain(env.KITSU_ACCESS_TOKEN!);
      expect(stopping.stopped(), 'the provider did stop').toBe(true);

      // Its tests not verified, with the reason: skipped, never failed.
      const kept = tests.filter((t) => t.annotations.some((a) => a.type === PROVIDER_UNREACHABLE));
      expect(kept.length, output).toBeGreaterThan(3);
      for (const t of kept) {
        expect(t.status, t.title).toBe('skipped');
        expect(t.annotations.find((a) => a.type === 'skip')?.description, t.title).toMatch(
          new RegExp(`^${UNREACHABLE_REASON_START}: the ${api} API at ${host} `),
        );
      }
      expect(
        tests.filter((t) => t.status === 'failed' || t.status === 'timedOut').map((t) => t.title),
        output,
      ).toEqual([]);
      // Verdicts before the outage (and of the other API) are kept.
      expect(tests.filter((t) => t.status === 'passed').length, output).toBeGreaterThan(0);
      if (api === 'media') {
        const store = tests.filter((t) => t.project === 'store');
        expect(store.filter((t) => t.status === 'passed').length, 'the store answered: its tests keep their verdicts').toBeGreaterThan(3);
        expect(store.filter((t) => kept.includes(t))).toEqual([]);
        expect(
          kept.some((t) => t.project === 'contracts-verify'),
          'a pact interaction met the outage: not verified',
        ).toBe(true);
        expect(
          kept.some((t) => t.project === 'media'),
          'and every media suite test after it',
        ).toBe(true);
      }

      // No rule failed, no consumer named; the reason in the console's last lines, and exit 1.
      expect(output).toMatch(/verify on live: \d+ tests passed, 0 failed, \d+ skipped/);
      expect(output).toMatch(new RegExp(`^\\s+${api}\\s+\\d+\\s+0\\s+`, 'm'));
      expect(output).not.toMatch(/who the \d+ failed contract and reliance rule/);
      expect(output).toMatch(/provider unreachable: \d+ test\(s\) not verified \(skipped with the reason: an outage, not a verdict; no rule failed for it\)/);
      expect(run.code, output).toBe(1);
      const affected = JSON.parse(readFileSync(join(dir, 'verify', 'affected-consumers.json'), 'utf8')) as { affected: unknown[]; breaks: unknown[] };
      expect(affected).toMatchObject({ breaks: [], affected: [] });

      // The report: each in the category of its own (its skip message), and the outage on the front page.
      const results = join(dir, 'allure-results');
      const messages = testsOfAllure(results)
        .filter((r) => r.status === 'skipped' && r.message?.startsWith(UNREACHABLE_REASON_START))
        .map((r) => r.message!);
      expect(messages).toHaveLength(kept.length);
      for (const message of messages) expect(message).toMatch(PROVIDER_UNREACHABLE_MESSAGE);
      const globals = JSON.parse(readFileSync(join(results, 'provider-outage-globals.json'), 'utf8')) as { errors: { message: string }[] };
      expect(globals.errors.map((e) => e.message)).toEqual([said[0]!.text]);

      // The budget is waited once, by the test whose request met the outage; every later test fails fast (no request
      // leaves, nothing waits), so the run ends within seconds of the decision.
      const [spender, ...after] = [...kept].sort((a, b) => b.durationMs - a.durationMs);
      const times = kept.map((t) => `${Math.round(t.durationMs)} ms ${t.title}`).join('\n');
      console.log(`${api}: the run took ${Math.round(run.ms)} ms; the tests it kept from verifying:\n${times}`);
      expect(spender!.durationMs, times).toBeGreaterThanOrEqual(OUTAGE_BUDGET.windowMs);
      expect(spender!.durationMs, times).toBeLessThan(OUTAGE_BUDGET.windowMs + 15_000);
      for (const t of after) expect(t.durationMs, times).toBeLessThan(OUTAGE_BUDGET.windowMs);
      expect(run.ms, output).toBeLessThan(60_000);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      stopping.close();
      await stopTwinProcess(twin);
    }
  });
}

/** The status and status message of each Allure result in `dir`. */
function testsOfAllure(dir: string): { status: string; message?: string }[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { status: string; statusDetails?: { message?: string } })
    .map((r) => ({ status: r.status, ...(r.statusDetails?.message ? { message: r.statusDetails.message } : {}) }));
}
