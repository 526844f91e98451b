/**
 * The Playwright runs of `npm test` (scripts/gate.ts), each reported in
 * reports/results/<run>.json; the gate bench reads the same list.
 */
export const GATE_RUNS = ['gate-unit', 'gate-mock', 'gate-record', 'gate-replay'] as const;

/**
 * gate-mock's projects: every project of playwright.config.ts but `unit`, which
 * gate-unit runs beside it (tests/unit/ci/gateRuns.test.ts holds the two to the
 * config). Split, the contracts' chain of one-worker projects and the media
 * suite's one worker no longer leave a core idle after the unit tests: the unit
 * tests fill it. `self-tests` (the harness's own negative controls: broken
 * providers and broken twins) runs here only: npm run verify leaves it out.
 */
export const API_PROJECTS = ['contracts-*', 'examples*', 'store', 'media', 'properties', 'storefront', 'self-tests'] as const;

/** Playwright's project filter: a name, or a pattern where `*` is any text; case-insensitive. */
export function projectMatches(pattern: string, project: string): boolean {
  const source = pattern
    .toLowerCase()
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(project.toLowerCase());
}
