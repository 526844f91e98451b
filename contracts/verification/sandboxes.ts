/**
 * The sandboxes of a run: which bucket (a team's own app, the harness's, the media API) each outside pact is
 * verified against. Apart from the targets themselves (apiTargets.ts), so a command that only names sandboxes
 * (pact-verify before its pacts come, --list-sandboxes) does not load every provider's states and clients.
 */
import { harnessConfig, type HarnessConfig, type LiveTeamSandbox } from '../../src/config/harnessConfig.ts';

export type PactApi = 'store' | 'media';

/**
 * A bucket the outside pacts of a run are verified against: `id` names it on the command line and in the nightly's
 * matrix (never a store id or token: those are secrets there), `label` says whose it is in the output.
 */
export interface Sandbox {
  readonly id: string;
  readonly label: string;
}

/**
 * The sandbox an outside consumer's pact is verified against on a live store: its own app's (STORE_TEAM_SANDBOXES),
 * else the harness's; the media API has none. Teams given the same host, store and token are one app, so one bucket.
 * Pacts of different sandboxes are verified side by side (verifySandboxes.ts, verifyInLanes.ts), or in jobs of their own (--sandbox).
 */
export function sandboxOf(api: PactApi, consumer: string, config: HarnessConfig = harnessConfig()): Sandbox {
  if (api === 'media') return { id: 'media', label: 'the media API' };
  const store = config.store;
  if (store.mode !== 'live') return { id: 'store', label: `the store ${store.mode}` };
  const team = store.teamSandboxes?.[consumer];
  if (!team) return { id: 'harness', label: `store ${store.storeId}, as the harness` };
  const { id, label } = teamSandboxes(store.teamSandboxes!).find(({ consumers }) => consumers.includes(consumer))!;
  return { id, label };
}

/**
 * Every sandbox a live run may verify pacts against, in a stable order: the nightly's matrix (`pact-verify
 * --list-sandboxes`). `when` splits them for a night whose suites run at the same time: a sandbox that writes where
 * the suites count records (the harness's store and media account, a team's app on the harness's store) goes after
 * them, since the suites assume no other writer during their run (docs/live.md); the others beside them.
 */
export function sandboxIds(config: HarnessConfig = harnessConfig(), when?: 'beside-suites' | 'after-suites'): string[] {
  const store = config.store;
  // An API that is off still has its sandbox: its pacts are published as not verified, with the reason, from there.
  if (store.mode !== 'live') return when === 'beside-suites' ? [] : ['store', 'media'];
  const teams = teamSandboxes(store.teamSandboxes ?? {});
  const shared = ({ apiUrl, storeId }: { apiUrl: string | undefined; storeId: string }) =>
    storeId === store.storeId && (apiUrl ?? store.apiUrl) === store.apiUrl;
  const beside = teams.filter((team) => !shared(team)).map(({ id }) => id);
  const after = ['harness', ...teams.filter(shared).map(({ id }) => id), 'media'];
  if (when === 'beside-suites') return beside;
  if (when === 'after-suites') return after;
  return ['harness', ...teams.map(({ id }) => id), 'media'];
}

/** The teams' apps, one per host, store and token, numbered in the order of their stores and first consumers. */
function teamSandboxes(entries: Readonly<Record<string, LiveTeamSandbox>>): (Sandbox & { consumers: string[]; storeId: string; apiUrl: string | undefined })[] {
  const byApp = Map.groupBy(Object.entries(entries), ([, { apiUrl, storeId, token }]) => JSON.stringify([apiUrl ?? '', storeId, token]));
  return [...byApp.values()]
    .map((group) => ({ storeId: group[0]![1].storeId, apiUrl: group[0]![1].apiUrl, consumers: group.map(([consumer]) => consumer).sort() }))
    .sort((a, b) => a.storeId.localeCompare(b.storeId) || a.consumers[0]!.localeCompare(b.consumers[0]!))
    .map(({ storeId, apiUrl, consumers }, n) => ({
      id: `sandbox-${n + 1}`,
      label: `store ${storeId}, as ${consumers.length === 1 ? `${consumers[0]}'s app` : `the app of ${consumers.length > 3 ? `${consumers.slice(0, 3).join(', ')} and ${consumers.length - 3} more` : consumers.join(', ')}`}`,
      consumers,
      storeId,
      apiUrl,
    }));
}
