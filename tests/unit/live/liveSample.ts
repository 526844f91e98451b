/**
 * The twins as a live target, for the live-safety tests: a twin process on
 * free ports, the live variables that point a run at it (as the gate's live
 * path does), the resources a live run could leave behind, counted through the
 * APIs, and a small sample Playwright run (sample/) through the real fixtures.
 */
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SEEDED_STORE, signInOnMediaTwin, startTwinProcess, twinAsLiveEnv } from '../../../scripts/lib/twinProcess.ts';
import { StoreClient } from '../../../src/clients/store/StoreClient.ts';
import { MediaClient } from '../../../src/clients/media/MediaClient.ts';
import { MEDIA_SEED } from '../../../src/twins/media/seedFacts.ts';
import { LEDGER_VARIABLE } from '../../../src/testing/LiveRequestGuard.ts';
import { freePort } from '../../../src/http/freePort.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const USER_AGENT = 'api-contract-harness live-safety test (https://example.invalid/api-contract-harness)';

/** What a live run may leave behind: the store's writable collections and the signed-in user's library. */
export interface ResourceCounts {
  products: number;
  categories: number;
  webhooks: number;
  libraryEntries: number;
}

export interface LiveTwins {
  /** The live variables of a run against these twins (writes allowed, the seeded store allowlisted). */
  readonly env: Record<string, string>;
  count(): Promise<ResourceCounts>;
  stop(): void;
}

export async function startLiveTwins(): Promise<LiveTwins> {
  const [storePort, mediaPort] = [await freePort(), await freePort()];
  const twin: ChildProcess = await startTwinProcess(storePort, mediaPort);
  try {
    const mediaToken = await signInOnMediaTwin(mediaPort);
    const storeUrl = `http://127.0.0.1:${storePort}`;
    const mediaUrl = `http://127.0.0.1:${mediaPort}/api/edge`;
    const store = new StoreClient({ baseUrl: `${storeUrl}/v1/${SEEDED_STORE.id}`, token: SEEDED_STORE.token, userAgent: USER_AGENT });
    const media = new MediaClient({ baseUrl: mediaUrl, token: mediaToken, userAgent: USER_AGENT });
    return {
      env: { ...twinAsLiveEnv({ storeUrl, mediaUrl, mediaToken, userAgent: USER_AGENT }), HARNESS_TARGET: 'live' },
      count: async () => ({
        products: (await store.listProducts({ per_page: 1 })).totalCount ?? Number.NaN,
        categories: (await store.listCategories({ per_page: 1 })).totalCount ?? Number.NaN,
        webhooks: (await store.listWebhooks()).length,
        libraryEntries:
          (await media.list('library-entries', { filter: { userId: MEDIA_SEED.users.adultAllowed.id }, page: { limit: 1 } })).meta.count ?? Number.NaN,
      }),
      stop: () => void twin.kill(),
    };
  } catch (error) {
    twin.kill();
    throw error;
  }
}

export interface SampleTest {
  title: string;
  status: string;
  errors: string[];
  annotations: { type: string; description?: string }[];
}

export interface SampleRun {
  /** The Playwright process's exit code. */
  status: number | null;
  /** What the run printed (the RequestBudgetReporter's lines among it). */
  output: string;
  stats: { expected: number; unexpected: number; skipped: number };
  tests: SampleTest[];
}

interface JsonSuite {
  specs?: { title: string; tests: { results: { status: string; errors: { message?: string }[]; annotations?: SampleTest['annotations'] }[] }[] }[];
  suites?: JsonSuite[];
}

/** Runs sample files (under sample/) with sample/sample.config.ts and `env` added to this process's environment. */
export function runSample(files: string[], env: Record<string, string>): SampleRun {
  const dir = mkdtempSync(join(tmpdir(), 'live-sample-'));
  try {
    // This run's own target and ledger, not the ones of the run the test is part of.
    const { HARNESS_TARGET: _t, HARNESS_RUN_NAME: _r, CI: _ci, [LEDGER_VARIABLE]: _l, ...inherited } = process.env;
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/@playwright/test/cli.js'),
        'test',
        '-c',
        'tests/unit/live/sample/sample.config.ts',
        ...files.map((f) => `tests/unit/live/sample/${f}`),
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...inherited, ...env, SAMPLE_OUTPUT: dir }, timeout: 60_000 },
    );
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { stats: SampleRun['stats']; suites: JsonSuite[] };
    return { status: run.status, output: `${run.stdout}\n${run.stderr}`, stats: report.stats, tests: testsOf(report.suites) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function testsOf(suites: JsonSuite[] = []): SampleTest[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.flatMap((t) =>
        t.results.map((r) => ({ title: spec.title, status: r.status, errors: r.errors.map((e) => e.message ?? ''), annotations: r.annotations ?? [] })),
      ),
    ),
    ...testsOf(suite.suites),
  ]);
}
