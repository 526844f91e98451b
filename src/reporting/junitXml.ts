/**
 * JUnit XML for a run that is not Playwright's (the packaged pact-verify in one process,
 * contracts/verification/planReports.ts): one <testsuite> per pact, one <testcase> per interaction, a
 * failure's message and a skip's reason, as CI systems read Playwright's own junit reporter.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface JunitCase {
  readonly suite: string;
  readonly name: string;
  readonly seconds: number;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** A failure's message or a skip's reason. */
  readonly text?: string;
}

const escape = (text: string): string =>
  text
    // XML 1.0 has no place for most control characters (a colour code in a message): dropped.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export function junitXml(cases: readonly JunitCase[]): string {
  const suites = Map.groupBy(cases, (c) => c.suite);
  const count = (of: readonly JunitCase[], status: JunitCase['status']) => of.filter((c) => c.status === status).length;
  const time = (of: readonly JunitCase[]) => of.reduce((sum, c) => sum + c.seconds, 0).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${cases.length}" failures="${count(cases, 'failed')}" skipped="${count(cases, 'skipped')}" errors="0" time="${time(cases)}">`,
  ];
  for (const [suite, of] of suites) {
    lines.push(
      `  <testsuite name="${escape(suite)}" tests="${of.length}" failures="${count(of, 'failed')}" skipped="${count(of, 'skipped')}" errors="0" time="${time(of)}">`,
    );
    for (const c of of) {
      const open = `    <testcase name="${escape(c.name)}" classname="${escape(suite)}" time="${c.seconds.toFixed(3)}"`;
      if (c.status === 'passed') lines.push(`${open}/>`);
      else if (c.status === 'skipped') lines.push(`${open}>`, `      <skipped message="${escape(c.text ?? '')}"/>`, '    </testcase>');
      else {
        const text = c.text ?? 'failed';
        lines.push(`${open}>`, `      <failure message="${escape(text.split('\n')[0]!)}">${escape(text)}</failure>`, '    </testcase>');
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

export function writeJunitXml(path: string, cases: readonly JunitCase[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, junitXml(cases));
}
