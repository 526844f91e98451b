/**
 * `npm run bench -- nightly`: the nightly job's sequence on this machine, against a provider that is a twin process
 * behind one planted break per API (proxies, as npm run breaks puts them): doctor, verify, the other teams' pacts
 * (the examples' and the held-out ones, standing in for the broker's), drift, report. Prints each step's exit code,
 * wall time and the live requests it sent (from its budget line), and the whole sequence against LIVE_REQUEST_BUDGET.
 *
 *   npm run bench -- nightly                        the store twin on the contract's bucket (40, leaking 2/s)
 *   BENCH_NIGHTLY_PLAN=plus npm run bench -- nightly   the field notes' plus plan: bound by CPU, not the bucket
 */
import { MEDIA_BREAKS } from '../src/testing/providerBreaks/mediaBreaks.ts';
import { STORE_BREAKS } from '../src/testing/providerBreaks/storeBreaks.ts';
import { variable } from '../src/config/env.ts';
import { runScript } from '../scripts/lib/runScript.ts';
import { isStorePlan } from '../src/rules/storeContract.ts';
import { startProviderBehindBreaks } from '../scripts/lib/twinProcess.ts';

const BREAKS = { store: 'total-count-off-by-one', media: 'included-twice' } as const;
const PORTS = { store: 4700, media: 4701 } as const;
const BUDGET_LINE = /live request budget: (\d+) of (\d+) requests used/;

/** The nightly's steps, as .github/workflows/nightly.yml runs them, with what each is. */
const STEPS = [
  { name: 'doctor', args: ['scripts/doctor.ts'] },
  { name: 'verify', args: ['scripts/verify.ts'] },
  {
    name: "teams' pacts",
    args: ['scripts/pactVerify.ts', '--pact', 'examples/pacts', '--pact', 'tests/fixtures/pacts', '--states', 'tests/fixtures/pact-states.ts'],
  },
  { name: 'drift', args: ['scripts/drift.ts'] },
  { name: 'report', args: ['scripts/report.ts'] },
] as const;

export async function nightlyTime(): Promise<void> {
  const plan = variable('BENCH_NIGHTLY_PLAN') ?? 'standard';
  if (!isStorePlan(plan)) throw new Error(`BENCH_NIGHTLY_PLAN="${plan}": standard or plus`);
  const provider = await startProviderBehindBreaks({
    storePort: PORTS.store,
    mediaPort: PORTS.media,
    plan,
    store: STORE_BREAKS[BREAKS.store]!,
    media: MEDIA_BREAKS[BREAKS.media]!,
    userAgent: 'api-contract-harness nightly bench (https://example.invalid)',
  });
  try {
    const env = { HARNESS_TARGET: 'live', HARNESS_REPORTS_DIR: 'reports/bench-nightly', ...provider.env };
    console.log(`nightly on a ${plan}-plan twin process behind breaks store:${BREAKS.store} and media:${BREAKS.media}`);
    console.log('step            exit  wall (s)  live requests');
    let wall = 0;
    let requests = 0;
    let budget = '';
    for (const step of STEPS) {
      console.error(`nightly bench: ${step.name}…`);
      const run = await runScript(step.args, env);
      const used = [...run.output.matchAll(new RegExp(BUDGET_LINE, 'g'))].map((m) => [Number(m[1]), m[2]!] as const);
      const sent = used.reduce((sum, [n]) => sum + n, 0);
      budget = used.at(-1)?.[1] ?? budget;
      wall += run.seconds;
      requests += sent;
      console.log(`${step.name.padEnd(15)} ${String(run.code).padEnd(5)} ${run.seconds.toFixed(1).padStart(8)}  ${used.length > 0 ? sent : '–'}`);
    }
    console.log(`the sequence   ${wall.toFixed(1).padStart(14)}  ${requests}${budget ? ` (each run's budget: ${budget})` : ''}`);
  } finally {
    await provider.close();
  }
}
