/**
 * `npm run repeat [-- N] [more playwright arguments]`: the suites on the twins
 * (store, media, properties, storefront) N times over with --repeat-each
 * (default 20), to catch a test that passes only sometimes. Then, per test,
 * in how many of the N repetitions it failed. CI runs a smaller repeat on every
 * change (.github/workflows/suites.yml).
 */
import { readFileSync } from 'node:fs';
import { runTool } from './lib/runTool.ts';
import { summaryLine, tallyReport } from './summarize.ts';

const SUITES = ['store', 'media', 'properties', 'storefront'];
const RUN_NAME = 'repeat';

interface JsonSuite {
  specs?: { file: string; title: string; tests: { projectName: string; results: { status: string }[] }[] }[];
  suites?: JsonSuite[];
}

/** "project › file › title" of every test that failed, with how many repetitions it failed in. */
export function failuresByTest(report: { suites: JsonSuite[] }): Map<string, number> {
  const failures = new Map<string, number>();
  const walk = (suite: JsonSuite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) {
        const last = test.results.at(-1)?.status;
        if (last === 'failed' || last === 'timedOut' || last === 'interrupted') {
          const key = `${test.projectName} › ${spec.file} › ${spec.title}`;
          failures.set(key, (failures.get(key) ?? 0) + 1);
        }
      }
    suite.suites?.forEach(walk);
  };
  report.suites.forEach(walk);
  return failures;
}

async function main(args: string[]): Promise<number> {
  const times = args[0] && /^\d+$/.test(args[0]) ? Number(args.shift()) : 20;
  if (times < 1) {
    console.error('repeat: the count must be a whole number of at least 1, e.g. npm run repeat -- 5');
    return 2;
  }
  console.log(`repeat: ${SUITES.join(', ')} on the twins, ${times} times over`);
  const started = Date.now();
  const code = await runTool('playwright', ['test', ...SUITES.map((p) => `--project=${p}`), `--repeat-each=${times}`, ...args], {
    HARNESS_TARGET: 'twin',
    HARNESS_RUN_NAME: RUN_NAME,
  });
  const path = `reports/results/${RUN_NAME}.json`;
  let report: { suites: JsonSuite[] };
  try {
    report = JSON.parse(readFileSync(path, 'utf8')) as { suites: JsonSuite[] };
  } catch {
    console.error(`repeat: no report at ${path}; the run did not finish (exit ${code}).`);
    return 1;
  }
  const failures = failuresByTest(report);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`repeat: ${times} repetitions in ${seconds} s: ${summaryLine(tallyReport(path))}`);
  if (failures.size === 0) console.log('repeat: no test failed in any repetition');
  for (const [test, count] of [...failures].sort((a, b) => b[1] - a[1])) console.log(`  failed in ${count} of ${times}: ${test}`);
  return code === 0 && failures.size === 0 ? 0 : 1;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
