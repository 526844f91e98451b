/**
 * The doctor's report as text: a heading, one line per check grouped by API
 * (`ok`, `PROBLEM`, `note`, `skip`, then what was found and the fix), the
 * requests sent, and the verdict with its exit code. Every line goes through
 * the redaction once more, with the tokens as secrets: nothing printed can
 * hold one, whatever a provider echoed.
 */
import { redactText } from '../http/redact.ts';
import type { Check, CheckStatus } from './Check.ts';
import type { DoctorReport } from './runDoctor.ts';

const MARK: Record<CheckStatus, string> = { ok: 'ok     ', problem: 'PROBLEM', note: 'note   ', skipped: 'skip   ' };
const SCOPES = ['run', 'store', 'media'] as const;

export function formatChecklist(report: DoctorReport): string {
  const target = report.target ? `HARNESS_TARGET=${report.target}` : 'the configuration is refused';
  const lines: string[] = [`npm run doctor: can a live run succeed with this setup? (${target})`];
  if (report.nothingToCheck) {
    lines.push(`  ${report.nothingToCheck}.`, 'result: nothing to check (exit 0)');
    return `${lines.join('\n')}\n`;
  }
  for (const scope of SCOPES) {
    const checks = report.checks.filter((c) => c.scope === scope);
    if (checks.length === 0) continue;
    lines.push(scope);
    for (const check of checks) lines.push(`  ${lineOf(check)}`);
  }
  if (report.requests) {
    const { store, media, budget } = report.requests;
    lines.push(`requests sent: ${store + media} (store ${store}, media ${media}), within LIVE_REQUEST_BUDGET ${budget}`);
  }
  const problems = report.checks.filter((c) => c.status === 'problem').length;
  lines.push(verdict(report.exitCode, problems));
  return `${lines.map((line) => redactText(line, report.secrets)).join('\n')}\n`;
}

function lineOf(check: Check): string {
  return `${MARK[check.status]} ${check.name}: ${check.detail}${check.fix ? `. Fix: ${check.fix}.` : ''}`;
}

function verdict(exitCode: number, problems: number): string {
  if (exitCode === 2) return `result: the configuration is refused, ${problems} problem(s) above; no request was sent (exit 2)`;
  if (exitCode === 1) return `result: a live run would not succeed, ${problems} problem(s) above (exit 1)`;
  return 'result: a live run can go ahead (exit 0)';
}
