/**
 * What a verification run found, per pact, as a broker takes it: read from
 * Playwright's JSON report (one test per interaction, under the pact's title),
 * so the result published is exactly what the report and the exit code say.
 * An interaction that was skipped was not verified: its pact does not pass.
 */
import type { VerificationResult } from './BrokerClient.ts';

interface JsonSpec {
  readonly title: string;
  readonly tests: readonly {
    readonly status: string;
    readonly annotations?: readonly { type: string; description?: string }[];
    readonly results: readonly { readonly status: string; readonly error?: { readonly message?: string } }[];
  }[];
}
interface JsonSuite {
  readonly title: string;
  readonly suites?: readonly JsonSuite[];
  readonly specs?: readonly JsonSpec[];
}
export interface JsonReport {
  readonly suites: readonly JsonSuite[];
}

export interface InteractionOutcome {
  readonly description: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** Why it failed or was skipped (the test's error, Pact's mismatch first). */
  readonly reason?: string;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** The outcome of each interaction under the describe `title`; empty when the report has no such pact. */
export function interactionOutcomes(report: JsonReport, title: string): InteractionOutcome[] {
  const found: InteractionOutcome[] = [];
  const walk = (suite: JsonSuite) => {
    if (suite.title === title) {
      for (const spec of suite.specs ?? []) {
        const test = spec.tests[0];
        const last = test?.results.at(-1);
        const status = test?.status === 'skipped' ? 'skipped' : test?.status === 'expected' || test?.status === 'flaky' ? 'passed' : 'failed';
        const reason =
          status === 'failed'
            ? last?.error?.message?.replace(ANSI, '')
            : status === 'skipped'
              ? test?.annotations?.find((a) => a.type === 'skip')?.description
              : undefined;
        found.push({ description: spec.title, status, ...(reason ? { reason } : {}) });
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites) walk(suite);
  return found;
}

/** The body of a verification result (pb:publish-verification-results) for one pact. */
export function verificationResult(
  outcomes: readonly InteractionOutcome[],
  providerVersion: string,
  verifier: { version: string; buildUrl?: string },
): VerificationResult {
  return {
    success: outcomes.length > 0 && outcomes.every((o) => o.status === 'passed'),
    providerApplicationVersion: providerVersion,
    ...(verifier.buildUrl ? { buildUrl: verifier.buildUrl } : {}),
    testResults: outcomes.map((o) => ({
      interactionDescription: o.description,
      success: o.status === 'passed',
      ...(o.status === 'passed'
        ? {}
        : { mismatches: [{ attribute: o.status === 'skipped' ? 'not verified' : 'verification', description: o.reason ?? o.status }] }),
    })),
    verifiedBy: { implementation: 'api-contract-harness (Pact JS Verifier)', version: verifier.version },
  };
}
