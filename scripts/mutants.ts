/**
 * `npm run mutants [name ...]`: proves the live-target suites can fail.
 * For each single break of a contract (src/testing/providerBreaks/*Breaks.ts) it starts
 * faithful twins, puts a breaking proxy in front of the API concerned, runs that
 * API's suites with HARNESS_TARGET=live against the proxy, and expects at least
 * one test to fail. A pass-through proxy per API (no break) must pass. Prints
 * which rules caught each break.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { runTool } from './lib/runTool.ts';
import { startBreakingProxy, type ProviderChange } from '../src/testing/providerBreaks/breakingProxy.ts';
import { STORE_BREAKS } from '../src/testing/providerBreaks/storeBreaks.ts';
import { MEDIA_BREAKS } from '../src/testing/providerBreaks/mediaBreaks.ts';
import { signInOnMediaTwin, startTwinProcess, twinAsLiveEnv } from './lib/twinProcess.ts';

const PARALLEL = Number(process.env.MUTANTS_PARALLEL ?? 4);
const FIRST_PORT = Number(process.env.MUTANTS_FIRST_PORT ?? 4200);
const PASS_THROUGH: ProviderChange & { breaks: string } = { breaks: 'nothing: the faithful twin behind a pass-through proxy' };
type Api = 'store' | 'media';

interface Job {
  api: Api;
  name: string;
  mutation: ProviderChange & { breaks: string };
}

interface Outcome extends Job {
  failed: string[];
  error?: string;
}

function failedRules(reportPath: string): string[] {
  interface Suite {
    suites?: Suite[];
    specs?: { title: string; tests: { status: string }[] }[];
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { suites: Suite[] };
  const failed: string[] = [];
  const walk = (s: Suite) => {
    s.suites?.forEach(walk);
    for (const spec of s.specs ?? []) if (spec.tests.some((t) => t.status === 'unexpected')) failed.push(spec.title.split(':')[0]!);
  };
  report.suites.forEach(walk);
  return [...new Set(failed)];
}

async function runOne(job: Job, slot: number): Promise<Outcome> {
  const storePort = FIRST_PORT + 2 * slot;
  const mediaPort = storePort + 1;
  const twin = await startTwinProcess(storePort, mediaPort);
  const token = await signInOnMediaTwin(mediaPort);
  const upstream = `http://127.0.0.1:${job.api === 'store' ? storePort : mediaPort}`;
  const proxy = await startBreakingProxy(upstream, job.mutation, { signedInToken: token });
  const report = `reports/mutants/${job.api}-${job.name}.json`;
  const storeUrl = job.api === 'store' ? proxy.url : `http://127.0.0.1:${storePort}`;
  const mediaUrl = `${job.api === 'media' ? proxy.url : `http://127.0.0.1:${mediaPort}`}/api/edge`;
  try {
    await runTool(
      'playwright',
      ['test', `--project=${job.api}`, '--reporter=json'],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
        HARNESS_TARGET: 'live',
        ...twinAsLiveEnv({ storeUrl, mediaUrl, mediaToken: token, userAgent: 'api-contract-harness mutants (https://example.invalid/api-contract-harness)' }),
      },
      'ignore',
    );
    return { ...job, failed: failedRules(report) };
  } catch (error) {
    return { ...job, failed: [], error: (error as Error).message };
  } finally {
    proxy.server.close();
    twin.kill();
  }
}

async function main(): Promise<number> {
  mkdirSync('reports/mutants', { recursive: true });
  const all: Job[] = [
    { api: 'media', name: 'pass-through', mutation: PASS_THROUGH },
    { api: 'store', name: 'pass-through', mutation: PASS_THROUGH },
    ...Object.entries(MEDIA_BREAKS).map(([name, mutation]) => ({ api: 'media' as const, name, mutation })),
    ...Object.entries(STORE_BREAKS).map(([name, mutation]) => ({ api: 'store' as const, name, mutation })),
  ];
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((n) => !all.some((j) => j.name === n || j.api === n));
  if (unknown.length > 0) {
    console.error(`mutants: no mutation or API named ${unknown.join(', ')}. Known: store, media, ${all.map((j) => j.name).join(', ')}`);
    return 2;
  }
  const jobs = all.filter((j) => wanted.length === 0 || wanted.includes(j.name) || wanted.includes(j.api) || j.name === 'pass-through');
  const started = Date.now();
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async (slot: number) => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const outcome = await runOne(job, slot);
      outcomes.push(outcome);
      const control = job.name === 'pass-through';
      const verdict = control
        ? outcome.failed.length === 0
          ? 'green, as it must be'
          : 'RED: the faithful twin failed'
        : outcome.failed.length > 0
          ? 'caught'
          : 'SURVIVED';
      console.log(
        `[${outcomes.length}/${jobs.length}] ${job.api} ${job.name}: ${verdict}${outcome.failed.length ? ` by ${outcome.failed.join(', ')}` : ''}${outcome.error ? ` (${outcome.error})` : ''}`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, (_, i) => worker(i)));
  const controls = outcomes.filter((o) => o.name === 'pass-through');
  const mutants = outcomes.filter((o) => o.name !== 'pass-through');
  const survivors = mutants.filter((o) => o.failed.length === 0);
  const redControls = controls.filter((o) => o.failed.length > 0);
  console.log(
    `\n${mutants.length - survivors.length} of ${mutants.length} breaks caught; pass-through ${redControls.length === 0 ? 'green' : 'RED'}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const s of survivors) console.log(`  survived: ${s.api} ${s.name} (${s.mutation.breaks})`);
  return survivors.length === 0 && redControls.length === 0 ? 0 : 1;
}

process.exit(await main());
