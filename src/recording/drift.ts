/**
 * Drift: a fresh recording compared with the stored one, both normalised by
 * the API's rules (contracts/<api>/normalisation.json), so what changes on
 * every run is no difference and what is left is drift. The parts live in
 * drift/: what a report holds (findings.ts), loading (load.ts), the schema
 * check (schemaCheck.ts; checkRecordings is every stored recording on its
 * own), the JSON diff (jsonDiff.ts) and the classification (classify.ts).
 */
import { RECORDING_APIS, type RecordingApi } from './cassette.ts';
import { loadRules } from './normalise.ts';
import { compareCassettes, freshOnlyFindings } from './drift/classify.ts';
import { DRIFT_FORMAT, DriftError, type ApiDrift, type CassetteDrift, type DriftFinding, type DriftOptions, type DriftReport } from './drift/findings.ts';
import { loadApi, recordingsProblem } from './drift/load.ts';
import { checkRecordings, recordedRouteSchemas } from './drift/schemaCheck.ts';

export * from './drift/findings.ts';
export { recordingsProblem } from './drift/load.ts';
export { checkRecordings, interactionExchange, recordedRouteSchemas } from './drift/schemaCheck.ts';

const DEFAULT_MAX_FIELDS = 20;

/** One API's cassettes on both sides, compared cassette by cassette (a cassette is one test's traffic). */
function compareApi(api: RecordingApi, storedRoot: string, freshRoot: string, options: DriftOptions, maxFields: number): ApiDrift {
  const rules = options.rules?.[api] ?? loadRules(api);
  const stored = loadApi(storedRoot, api, rules);
  const fresh = loadApi(freshRoot, api, rules);
  const routes = recordedRouteSchemas(freshRoot, api);
  const cassettes: CassetteDrift[] = [];
  let compared = 0;
  for (const key of [...new Set([...stored.keys(), ...fresh.keys()])].sort()) {
    const [s, f] = [stored.get(key), fresh.get(key)];
    const meta = (f ?? s)!.normalised;
    let presence: CassetteDrift['presence'];
    let findings: DriftFinding[];
    if (s && f) {
      compared++;
      presence = 'both';
      findings = compareCassettes(s, f, rules, routes, maxFields);
    } else if (f) {
      presence = 'fresh-only';
      findings = freshOnlyFindings(f, routes);
    } else {
      if (options.freshOnly) continue;
      presence = 'stored-only';
      findings = [{ kind: 'observation', change: 'cassette-missing', message: 'not recorded afresh: the test is gone, was skipped, or did not run' }];
    }
    if (findings.length > 0) cassettes.push({ suite: meta.suite, test: meta.test, file: key, presence, findings });
  }
  const all = cassettes.flatMap((c) => c.findings);
  return {
    api,
    storedCassettes: stored.size,
    freshCassettes: fresh.size,
    compared,
    contractBreaks: all.filter((x) => x.kind === 'contract-break').length,
    observations: all.filter((x) => x.kind === 'observation').length,
    cassettes,
  };
}

/** Compares the recordings under freshRoot with those under storedRoot, API by API. */
export function compareRecordings(storedRoot: string, freshRoot: string, options: DriftOptions = {}): DriftReport {
  for (const [root, role] of [
    [storedRoot, 'stored'],
    [freshRoot, 'fresh'],
  ] as const) {
    const problem = recordingsProblem(root, role);
    if (problem) throw new DriftError(problem);
  }
  const maxFields = Math.max(0, options.maxFieldDifferences ?? DEFAULT_MAX_FIELDS);
  const apis = RECORDING_APIS.map((api) => compareApi(api, storedRoot, freshRoot, options, maxFields));
  return {
    format: DRIFT_FORMAT,
    generatedAt: (options.now ?? new Date()).toISOString(),
    storedRoot,
    freshRoot,
    freshOnly: options.freshOnly ?? false,
    contractBreaks: apis.reduce((n, a) => n + a.contractBreaks, 0),
    observations: apis.reduce((n, a) => n + a.observations, 0),
    apis,
    storedBreaches: checkRecordings(storedRoot),
  };
}
