/**
 * `npm run bench -- break-cost`: what a break that fails much costs a live run. Each API's `npm run verify -- --api
 * <api>` on live, against a twin process on the plus plan (bound by the CPU, not the bucket), first clean (a
 * pass-through proxy), then behind a proxy that breaks every error document, in one run. Playwright gives every
 * failed test a new worker, so a break that fails hundreds of tests could multiply the run; the target is at most
 * twice the clean run. Prints each run's wall time, failed and passed tests, and the ratio.
 *
 *   BENCH_BREAK_APIS=media npm run bench -- break-cost     one API's two runs
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderChange } from '../src/testing/providerBreaks/breakingProxy.ts';
import { MEDIA_BREAKS } from '../src/testing/providerBreaks/mediaBreaks.ts';
import { runScript } from '../scripts/lib/runScript.ts';
import { tallyReport } from '../scripts/summarize.ts';
import { RECORDING_PLAN, startProviderBehindBreaks } from '../scripts/lib/twinProcess.ts';
import { benchEnv } from './lib/benchEnv.ts';

const PORTS = { storePort: 4730, mediaPort: 4731 } as const;
const TARGET_RATIO = 2;
const OUT = 'reports/bench-break-cost';

/** A break of each API's error documents, the kind that touches most tests. */
const ERROR_DOCUMENTS: Record<'store' | 'media', { name: string; change: ProviderChange }> = {
  // Every store error answered with one shape the contract does not have.
  store: {
    name: 'every error answered {"message": …}',
    change: { onResponse: (res) => (res.status >= 400 ? { ...res, body: '{"message":"Something went wrong"}' } : res) },
  },
  media: { name: 'media:errors-not-an-array', change: MEDIA_BREAKS['errors-not-an-array']! },
};

export async function breakCost(): Promise<void> {
  console.log('api    provider                              wall (s)  failed  passed  skipped  ratio');
  for (const api of benchEnv().breakApis) {
    let clean = 0;
    for (const broken of [false, true]) {
      const label = broken ? ERROR_DOCUMENTS[api].name : 'clean (pass-through proxy)';
      // A fresh twin process for each run, so the broken run meets the state the clean one met.
      const provider = await startProviderBehindBreaks({
        ...PORTS,
        plan: RECORDING_PLAN,
        [api]: broken ? ERROR_DOCUMENTS[api].change : {},
        userAgent: 'api-contract-harness break-cost bench (https://example.invalid)',
      });
      try {
        const run = `break-cost-${api}-${broken ? 'broken' : 'clean'}`;
        console.error(`break-cost bench: ${api}, ${label}…`);
        const result = await runScript(['scripts/verify.ts', '--api', api], {
          HARNESS_TARGET: 'live',
          HARNESS_RUN_NAME: run,
          HARNESS_REPORTS_DIR: OUT,
          ...provider.env,
        });
        const report = join(OUT, 'results', `${run}.json`);
        if (!existsSync(report)) throw new Error(`${run}: verify wrote no report (exit ${result.code}):\n${result.output.slice(-2000)}`);
        const tally = tallyReport(report);
        if (!broken) clean = result.seconds;
        const ratio = result.seconds / clean;
        const verdict = broken ? `×${ratio.toFixed(2)} ${ratio <= TARGET_RATIO ? 'MET' : 'MISSED'}` : '';
        console.log(
          `${api.padEnd(6)} ${label.padEnd(36)} ${result.seconds.toFixed(1).padStart(8)}  ${String(tally.failed).padStart(6)}  ${String(tally.passed).padStart(6)}  ${String(tally.skipped).padStart(7)}  ${verdict}`,
        );
      } finally {
        await provider.close();
      }
    }
  }
  console.log(`target: behind the break, at most ×${TARGET_RATIO} the clean run's wall time, each API`);
}
