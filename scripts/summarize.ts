/**
 * Reads Playwright JSON reports and prints one plain line for CI:
 * `N passed, N failed, N skipped`. Usage: node scripts/summarize.ts [report.json ...]
 * (default: every reports/results/gate-*.json). `--extra-failed N` adds checks
 * that failed outside the test runner (lint). Exits 1 when anything failed or a
 * report is missing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

export function tallyReport(path: string): Tally {
  const { stats } = JSON.parse(readFileSync(path, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  // A flaky test passed on retry: it counts as passed, and CI keeps no retries anyway.
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}

/**
 * A check outside the test runner (the package check, the verdicts check) writes its count where this reads it,
 * in the JSON report's `stats` shape, with what it checked beside it.
 */
export function writeCheckReport(
  name: string,
  tally: Pick<Tally, 'passed' | 'failed'> & Partial<Pick<Tally, 'skipped'>>,
  details: Record<string, unknown>,
): string {
  const path = join('reports/results', `${name}.json`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    JSON.stringify({ stats: { expected: tally.passed, unexpected: tally.failed, flaky: 0, skipped: tally.skipped ?? 0 }, ...details }, null, 2),
  );
  return path;
}

export function summaryLine(t: Tally): string {
  return `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`;
}

if (import.meta.main) {
  const dir = 'reports/results';
  const args = process.argv.slice(2);
  const extraAt = args.indexOf('--extra-failed');
  const extraFailed = extraAt >= 0 ? Number(args.splice(extraAt, 2)[1] ?? 0) : 0;
  // A run that exited non-zero with no failed test (a server that did not start, a crash) still failed.
  const runFailedAt = args.indexOf('--run-failed');
  const runFailed = runFailedAt >= 0 && args.splice(runFailedAt, 1).length > 0;
  const files =
    args.length > 0
      ? args
      : existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.startsWith('gate-') && f.endsWith('.json'))
            .map((f) => join(dir, f))
        : [];
  const total: Tally = { passed: 0, failed: extraFailed, skipped: 0 };
  let missing = files.length === 0;
  for (const file of files) {
    if (!existsSync(file)) {
      console.error(`summarize: no report at ${file}; the run that writes it did not finish.`);
      missing = true;
      continue;
    }
    const t = tallyReport(file);
    total.passed += t.passed;
    total.failed += t.failed;
    total.skipped += t.skipped;
  }
  if (runFailed && total.failed === extraFailed) {
    console.error('summarize: the test run exited non-zero without a failed test (see its output above); counted as one failure.');
    total.failed += 1;
  }
  console.log(summaryLine(total));
  process.exit(total.failed > 0 || missing ? 1 : 0);
}
