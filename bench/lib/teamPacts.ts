/**
 * The nightly-teams bench's generated teams: each a consumer (`team-001`, …) whose store pact holds about ten
 * interactions drawn, the same way every run, from the committed consumer pacts' store interactions, provider
 * states and all, so each verifies green against a live sandbox store. A team's pact keeps the Pact specification
 * its interactions were written in: they are drawn from the committed interactions of one version (1.x to 4.x),
 * each version as often as it has interactions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STORE_PACT } from '../../contracts/pactNames.ts';
import { STORE_STATES, STORE_VOCABULARY } from '../../contracts/store/providerStates.ts';
import { parsePact, type PactInteraction } from '../../contracts/verification/pactFile.ts';
import { matchState } from '../../contracts/verification/stateVocabulary.ts';
import { requiredScope } from '../../src/rules/storeScopes.ts';

/**
 * The committed consumer pacts the interactions are drawn from: every store pact in these folders. Not
 * tests/fixtures/pacts/versions/, whose pacts show how each version is read, some of them red on purpose.
 */
const SOURCES = ['contracts/pacts', 'examples/pacts', 'tests/fixtures/pacts', 'tests/fixtures/pacts/tools'];

/** The store every drawn interaction names: a team's pact is mapped to its own sandbox store (STORE_TEAM_SANDBOXES). */
export const TEAM_STORE_ID = 100001;

/** States a live store cannot arrange (the harness skips them there, saying why): an interaction naming one would not be verified. */
const NOT_ON_LIVE: ReadonlySet<string> = new Set([STORE_STATES.suspended, STORE_STATES.bucketFull, STORE_STATES.codeApproved]);

export interface TeamPact {
  readonly consumer: string;
  /** The pact as its consumer tests would have written it, ready to publish. */
  readonly content: Record<string, unknown>;
  /** What its app must be granted: read_products (every state reads the catalogue), write_products when it writes. */
  readonly scopes: readonly string[];
  readonly interactions: number;
  /** The interactions that write (POST): what an app without write_products is refused. */
  readonly writes: number;
}

interface Drawn {
  readonly raw: Record<string, unknown>;
  readonly interaction: PactInteraction;
}

interface Family {
  readonly metadata: unknown;
  readonly interactions: Drawn[];
}

/** Why a committed interaction is not drawn, or undefined when it is: it must verify green on a live sandbox store. */
function leftOut(interaction: PactInteraction): string | undefined {
  const path = interaction.request.path;
  if (!path.startsWith(`/v1/${TEAM_STORE_ID}/`)) return 'not a request to the sandbox store (the token endpoint, or another store)';
  // The seeded store's records are numbered from its id (src/twins/store/seed.ts); a sandbox store lacks another's.
  const ids = path
    .split('?')[0]!
    .split('/')
    .slice(3)
    .filter((segment) => /^\d{7,}$/.test(segment));
  if (ids.some((id) => !id.startsWith(String(TEAM_STORE_ID)))) return 'a record the sandbox store does not hold';
  for (const state of interaction.providerStates ?? []) {
    const match = matchState(STORE_VOCABULARY, state.name, state.params ?? {});
    if (!match) return `the team's own state "${state.name}" (its states file)`;
    if (NOT_ON_LIVE.has(match.entry.name)) return `"${match.entry.name}", which a live store cannot arrange`;
  }
  return undefined;
}

/** What the teams are drawn from: the committed interactions that verify on a live sandbox store, and those that do not, with why. */
export interface TeamPool {
  /** Grouped by their file's specification, newest first. */
  readonly families: readonly Family[];
  readonly leftOut: readonly { readonly file: string; readonly description: string; readonly reason: string }[];
}

export function teamPool(root: string): TeamPool {
  const files = SOURCES.flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => name.endsWith(`-${STORE_PACT.provider}.json`))
      .sort()
      .map((name) => join(dir, name)),
  );
  const byVersion = new Map<number, Family>();
  const left: { file: string; description: string; reason: string }[] = [];
  for (const file of files) {
    const pact = parsePact(JSON.parse(readFileSync(join(root, file), 'utf8')), file, 'team');
    for (const message of pact.messages) left.push({ file, description: message.description, reason: 'a message: no delivery is observed on live' });
    const family = byVersion.get(pact.specification) ?? { metadata: pact.raw['metadata'], interactions: [] };
    for (const interaction of pact.interactions) {
      const reason = leftOut(interaction);
      if (reason) left.push({ file, description: interaction.description, reason });
      else family.interactions.push({ raw: interaction.raw!, interaction });
    }
    if (family.interactions.length > 0) byVersion.set(pact.specification, family);
  }
  return { families: [...byVersion.entries()].sort(([a], [b]) => b - a).map(([, family]) => family), leftOut: left };
}

/** What an app needs to verify these interactions: read_products always (the states read the catalogue), the requests' own. */
function scopesOf(drawn: readonly Drawn[]): string[] {
  const needed = new Set(['read_products']);
  for (const { interaction } of drawn) {
    const scope = requiredScope(interaction.request.method, interaction.request.path.split('?')[0]!.split('/').slice(3));
    if (scope) needed.add(scope);
  }
  return [...needed].sort();
}

const isWrite = ({ interaction }: Drawn) => interaction.request.method.toUpperCase() !== 'GET';

/**
 * `count` teams, `team-001` on. Team n draws 8 to 12 interactions from the committed interactions of one version,
 * consecutively from an offset of its own; a version with fewer gives some twice, named `… #2`.
 */
export function teamPacts(count: number, pool: TeamPool): TeamPact[] {
  // Each version as often as it has interactions: slot k of the concatenated pool belongs to one version.
  const slots = pool.families.flatMap((family) => family.interactions.map(() => family));
  return Array.from({ length: count }, (_, i) => {
    const family = slots[i % slots.length]!;
    const size = 8 + (i % 5);
    const start = (i * 3) % family.interactions.length;
    const drawn = Array.from({ length: size }, (_, k) => family.interactions[(start + k) % family.interactions.length]!);
    return teamPact(`team-${String(i + 1).padStart(3, '0')}`, family, drawn);
  });
}

/**
 * A team whose pact writes (it holds a POST, drawn from the newest version's interactions), for the bench's check
 * that an app installed without write_products is red naming it.
 */
export function writingTeamPact(consumer: string, pool: TeamPool): TeamPact {
  const family = pool.families[0]!;
  const write = family.interactions.findIndex(isWrite);
  if (write < 0) throw new Error('no committed store interaction of the newest specification writes: the bench has no pact to refuse');
  const drawn = Array.from({ length: 10 }, (_, k) => family.interactions[(write + k) % family.interactions.length]!);
  return teamPact(consumer, family, drawn);
}

function teamPact(consumer: string, family: Family, drawn: readonly Drawn[]): TeamPact {
  const seen = new Map<string, number>();
  const interactions = drawn.map(({ raw }) => {
    const description = String(raw['description']);
    const times = (seen.get(description) ?? 0) + 1;
    seen.set(description, times);
    // A description names one interaction of a pact: a second draw of the same one is named apart.
    return times === 1 ? raw : { ...raw, description: `${description} #${times}` };
  });
  return {
    consumer,
    content: { consumer: { name: consumer }, provider: { name: STORE_PACT.provider }, interactions, metadata: family.metadata },
    scopes: scopesOf(drawn),
    interactions: interactions.length,
    writes: drawn.filter(isWrite).length,
  };
}
