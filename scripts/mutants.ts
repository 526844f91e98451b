/**
 * `npm run mutants [name ...]`: proves the live-target store suites can fail.
 * For each single break of the contract (tests/mutants/storeMutations.ts) it starts
 * a faithful twin, puts a breaking proxy in front of it, runs the store suites with
 * HARNESS_TARGET=live against the proxy, and expects at least one test to fail.
 * A pass-through proxy (no break) must pass. Prints which rules caught each break.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { runTool } from './lib/runTool.ts';
import { startBreakingProxy, type Mutation } from '../tests/mutants/breakingProxy.ts';
import { STORE_MUTATIONS } from '../tests/mutants/storeMutations.ts';

const PARALLEL = Number(process.env.MUTANTS_PARALLEL ?? 4);
const FIRST_PORT = Number(process.env.MUTANTS_FIRST_PORT ?? 4200);
const PASS_THROUGH: Mutation = { breaks: 'nothing: the faithful twin behind a pass-through proxy' };

interface Outcome {
  name: string;
  breaks: string;
  failed: string[];
  passed: number;
  error?: string;
}

async function startTwin(port: number): Promise<ChildProcess> {
  const twin = spawn(process.execPath, ['src/twins/main.ts'], { env: { ...process.env, STORE_MOCK_PORT: String(port) }, stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/__twin/health`)).ok) return twin;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  twin.kill();
  throw new Error(`twin on port ${port} did not start`);
}

function failedTitles(reportPath: string): { failed: string[]; passed: number } {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { suites: Suite[]; stats: { expected: number } };
  interface Suite {
    suites?: Suite[];
    specs?: { title: string; tests: { status: string }[] }[];
  }
  const failed: string[] = [];
  const walk = (s: Suite) => {
    s.suites?.forEach(walk);
    for (const spec of s.specs ?? []) if (spec.tests.some((t) => t.status === 'unexpected')) failed.push(spec.title.split(':')[0]!);
  };
  report.suites.forEach(walk);
  return { failed: [...new Set(failed)], passed: report.stats.expected };
}

async function runOne(name: string, mutation: Mutation, port: number): Promise<Outcome> {
  const twin = await startTwin(port);
  const proxy = await startBreakingProxy(`http://127.0.0.1:${port}`, mutation);
  const report = `reports/mutants/${name}.json`;
  try {
    await runTool(
      'playwright',
      ['test', '--project=store', '--reporter=json'],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
        HARNESS_TARGET: 'live',
        STORE_API_URL: proxy.url,
        STORE_ID: '100001',
        STORE_ACCESS_TOKEN: 'twin-token-100001',
        STORE_USER_AGENT: 'api-contract-harness mutants (https://example.invalid/api-contract-harness)',
        STORE_ALLOW_WRITES: '1',
      },
      true,
    );
    return { name, breaks: mutation.breaks, ...failedTitles(report) };
  } catch (error) {
    return { name, breaks: mutation.breaks, failed: [], passed: 0, error: (error as Error).message };
  } finally {
    proxy.server.close();
    twin.kill();
  }
}

async function main(): Promise<number> {
  mkdirSync('reports/mutants', { recursive: true });
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((n) => !(n in STORE_MUTATIONS));
  if (unknown.length > 0) {
    console.error(`mutants: no mutation named ${unknown.join(', ')}. Known: ${Object.keys(STORE_MUTATIONS).join(', ')}`);
    return 2;
  }
  const jobs: [string, Mutation][] = [
    ['pass-through', PASS_THROUGH],
    ...Object.entries(STORE_MUTATIONS).filter(([n]) => wanted.length === 0 || wanted.includes(n)),
  ];
  const started = Date.now();
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async (slot: number) => {
    while (next < jobs.length) {
      const [name, mutation] = jobs[next++]!;
      const outcome = await runOne(name, mutation, FIRST_PORT + slot);
      outcomes.push(outcome);
      const verdict =
        name === 'pass-through'
          ? outcome.failed.length === 0
            ? 'green, as it must be'
            : 'RED: the faithful twin failed'
          : outcome.failed.length > 0
            ? 'caught'
            : 'SURVIVED';
      console.log(
        `[${outcomes.length}/${jobs.length}] ${name}: ${verdict}${outcome.failed.length ? ` by ${outcome.failed.join(', ')}` : ''}${outcome.error ? ` (${outcome.error})` : ''}`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, (_, i) => worker(i)));
  const control = outcomes.find((o) => o.name === 'pass-through')!;
  const survivors = outcomes.filter((o) => o.name !== 'pass-through' && o.failed.length === 0);
  const mutants = outcomes.length - 1;
  console.log(
    `\n${mutants - survivors.length} of ${mutants} breaks caught; pass-through ${control.failed.length === 0 ? 'green' : 'red'}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const s of survivors) console.log(`  survived: ${s.name} (${s.breaks})`);
  return survivors.length === 0 && control.failed.length === 0 ? 0 : 1;
}

process.exit(await main());
