/**
 * `npm run verify`'s own arguments: `--api store|media` and `--rule <id or prefix>`
 * choose what it verifies, on every target; every other argument goes to
 * Playwright as it is. How a choice becomes a Playwright run: the APIs' projects,
 * the APIs' folders in the projects both share, and for rules a test list of the
 * tests whose `rule` annotations name them (the titles of the properties and the
 * pacts do not start with a rule id).
 */
import type { RuleCatalogue } from '../rules/Rule.ts';
import { editDistance } from '../text/editDistance.ts';

/** What one run of npm run verify checks. */
export interface VerifySelection {
  /** The APIs verified: those named by --api, else those of the --rule prefixes, else every catalogue's. */
  readonly apis: readonly string[];
  /** Rule ids or prefixes of ids (`store.pagination`); empty: every rule of `apis`. */
  readonly rules: readonly string[];
  /** Whether --api or --rule narrowed the run. */
  readonly narrowed: boolean;
  /** The arguments that are Playwright's. */
  readonly rest: readonly string[];
}

/** A bad --api or --rule: npm run verify prints it and exits 2, as for a bad variable. */
export class VerifyArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifyArgsError';
  }
}

/**
 * The Playwright projects of each API's checks (the storefront's browser test is the store's): its suites, its
 * properties, the harness's own pact and the other consumers' pacts (contracts-outside: the examples' and the
 * held-out teams'), so a nightly says where every consumer stands.
 */
export const API_PROJECTS: Readonly<Record<string, readonly string[]>> = {
  store: ['store', 'storefront', 'properties', 'contracts-verify', 'contracts-outside'],
  media: ['media', 'properties', 'contracts-verify', 'contracts-outside'],
};

/** Each API's folders, which pick its tests out of the projects both APIs share (properties, contracts-verify). */
export const API_FOLDERS: Readonly<Record<string, readonly string[]>> = {
  // The outside pacts' one file declares both APIs' pacts; a one-API live run skips the other API's, naming its variables.
  store: ['suites/store/', 'suites/storefront/', 'properties/store/', 'contracts/store/', 'contracts/verification/'],
  media: ['suites/media/', 'properties/media/', 'contracts/media/', 'contracts/verification/'],
};

/** Whether rule `id` is `prefix` or lies under it, a dot-separated part at a time (`store.pagination` holds `store.pagination.total-count`). */
export function ruleMatches(id: string, prefix: string): boolean {
  return id === prefix || id.startsWith(`${prefix}.`);
}

/** Reads --api and --rule (`--api store`, `--api=store,media`, repeated or comma-separated); throws VerifyArgsError naming the fix. */
export function parseVerifyArgs(argv: readonly string[], catalogues: Readonly<Record<string, RuleCatalogue>>): VerifySelection {
  const named: Record<'--api' | '--rule', string[]> = { '--api': [], '--rule': [] };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const option = (['--api', '--rule'] as const).find((o) => arg === o || arg.startsWith(`${o}=`));
    if (!option) {
      rest.push(arg);
      continue;
    }
    const value = arg === option ? argv[++i] : arg.slice(option.length + 1);
    if (!value || value.startsWith('-'))
      throw new VerifyArgsError(`${option} needs a value: ${option === '--api' ? apiList(catalogues) : 'a rule id or prefix, e.g. store.pagination'}.`);
    named[option].push(
      ...value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    );
  }

  const unknownApis = named['--api'].filter((api) => !catalogues[api]);
  if (unknownApis.length > 0) throw new VerifyArgsError(`--api ${unknownApis.join(',')}: no such API. Use ${apiList(catalogues)}.`);
  const ids = Object.values(catalogues).flatMap((catalogue) => Object.keys(catalogue));
  for (const prefix of named['--rule']) {
    if (ids.some((id) => ruleMatches(id, prefix))) continue;
    throw new VerifyArgsError(
      `--rule ${prefix} matches no rule of the catalogues (src/rules). Closest: ${closestIds(prefix, ids).join(', ')}. A prefix is whole parts of an id: store, store.pagination, store.pagination.total-count.`,
    );
  }
  const ruleApis = [...new Set(named['--rule'].map((prefix) => prefix.split('.')[0]!))];
  const apis = named['--api'].length > 0 ? [...new Set(named['--api'])] : ruleApis.length > 0 ? ruleApis : Object.keys(catalogues);
  const outside = named['--rule'].filter((prefix) => !apis.includes(prefix.split('.')[0]!));
  if (outside.length > 0) throw new VerifyArgsError(`--rule ${outside.join(',')} is not a rule of --api ${apis.join(',')}: drop one of the two.`);
  return { apis, rules: [...new Set(named['--rule'])], narrowed: named['--api'].length + named['--rule'].length > 0, rest };
}

function apiList(catalogues: Readonly<Record<string, RuleCatalogue>>): string {
  return Object.keys(catalogues).join(' or ');
}

/**
 * The ids, areas and APIs nearest to a prefix that matched nothing: those it begins first
 * (a prefix cut mid-part), then by edit distance.
 */
export function closestIds(prefix: string, ids: readonly string[], count = 5): string[] {
  const candidates = [...new Set(ids.flatMap((id) => id.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))))];
  const score = (candidate: string) => (candidate.startsWith(prefix) ? -1 / candidate.length : editDistance(prefix, candidate));
  return candidates
    .map((candidate) => ({ candidate, score: score(candidate) }))
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}

/**
 * How a selection runs: Playwright's arguments (before the user's own) and the variables the config and VerifyReporter read.
 * A replay leaves the properties out: their requests are generated afresh each run, so no cassette holds their answers
 * (npm run record does not record them); the rules only they verify show as not verified.
 */
export function playwrightRun(selection: VerifySelection, target: string, testList?: string): { args: string[]; env: Record<string, string> } {
  const projects = [...new Set(selection.apis.flatMap((api) => API_PROJECTS[api] ?? []))].filter((project) => target !== 'replay' || project !== 'properties');
  const args = projects.map((project) => `--project=${project}`);
  if (testList) args.push(`--test-list=${testList}`);
  // One API of two: its folders (positional filters) pick its tests out of the shared projects.
  else if (selection.apis.length < Object.keys(API_PROJECTS).length) args.push(...selection.apis.flatMap((api) => API_FOLDERS[api] ?? []));
  const env: Record<string, string> = { HARNESS_CONSOLE: 'verify' };
  if (selection.narrowed) env.HARNESS_VERIFY_APIS = selection.apis.join(',');
  if (selection.rules.length > 0) env.HARNESS_VERIFY_RULES = selection.rules.join(',');
  return { args, env };
}

/** The part of Playwright's JSON report (`--list --reporter=json`) a test list is made from. */
export interface ListedSuite {
  readonly title: string;
  readonly file?: string;
  readonly specs?: readonly {
    readonly title: string;
    readonly file: string;
    readonly tests: readonly { readonly projectName: string; readonly annotations: readonly { type: string; description?: string }[] }[];
  }[];
  readonly suites?: readonly ListedSuite[];
}

/**
 * The lines of a Playwright test list (`--test-list`) naming each listed test whose `rule` annotations
 * name a rule under one of `prefixes`: `[project] › file › describe › title`. A title holding the
 * separator names its whole file instead (more tests run; the console counts the chosen rules only).
 */
export function ruleTestList(suites: readonly ListedSuite[], prefixes: readonly string[]): string[] {
  const lines = new Set<string>();
  const walk = (suite: ListedSuite, titles: readonly string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const rules = test.annotations.filter((a) => a.type === 'rule' && a.description).map((a) => a.description!);
        if (!rules.some((id) => prefixes.some((prefix) => ruleMatches(id, prefix)))) continue;
        const path = [...titles, spec.title];
        const exact = path.every((title) => !title.includes('›') && title === title.trim());
        lines.add([`[${test.projectName}]`, spec.file, ...(exact ? path : [])].join(' › '));
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  // The top suites are files: their title is the file, not part of a test's title path.
  for (const file of suites) walk(file, []);
  return [...lines];
}
