/**
 * The Playwright runs of `npm test` (scripts/gate.ts), each reported in
 * reports/results/<run>.json; the gate bench reads the same list.
 */
export const GATE_RUNS = ['gate-unit', 'gate-twins', 'gate-record', 'gate-replay'] as const;

/**
 * gate-twins's projects: every project of playwright.config.ts but `unit`, which
 * gate-unit runs beside it (tests/unit/ci/gateRuns.test.ts holds the two to the
 * config). Split, the contracts' chain of one-worker projects and the media
 * suite's one worker no longer leave a core idle after the unit tests: the unit
 * tests fill it. `self-tests` (the harness's own negative controls: provider
 * breaks and twin breaks) runs here only: npm run verify leaves it out.
 */
export const API_PROJECTS = ['contracts-*', 'store', 'media', 'properties', 'storefront', 'self-tests'] as const;

/** gate-record's projects: the live path (the live-capable suites, the properties and every pact verification) against twin processes. */
export const RECORD_PROJECTS = ['store', 'media', 'properties', 'contracts-verify', 'contracts-outside'] as const;

/** gate-replay's projects: what the shipped recordings must answer (the properties need a clock, so they are not replayed). */
export const REPLAY_PROJECTS = ['store', 'media', 'contracts-verify', 'contracts-outside'] as const;

export type GateRun = (typeof GATE_RUNS)[number];

/** Each run of the gate and its projects (patterns as Playwright's --project reads them). */
export const GATE_PROJECTS: Readonly<Record<GateRun, readonly string[]>> = {
  'gate-unit': ['unit'],
  'gate-twins': API_PROJECTS,
  'gate-record': RECORD_PROJECTS,
  'gate-replay': REPLAY_PROJECTS,
};

/** `--project=…` arguments for a list of projects. */
export const projectArgs = (projects: readonly string[]): string[] => projects.map((project) => `--project=${project}`);

/** Playwright's project filter: a name, or a pattern where `*` is any text; case-insensitive. */
export function projectMatches(pattern: string, project: string): boolean {
  const source = pattern
    .toLowerCase()
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(project.toLowerCase());
}
