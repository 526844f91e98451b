/**
 * Where a store property runs: a twin (the suites' twin, or one started with a
 * deliberate break) where every case arranges a fresh store through the
 * control API and time is virtual, or the configured live store, which can be
 * read but not arranged, on wall-clock time.
 */
import type { StoreClient } from '../../src/clients/store/StoreClient.ts';
import type { Exchange } from '../../src/clients/store/types.ts';
import type { Clock } from '../../src/clock/Clock.ts';
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { liveStoreProvider, twinStoreProvider, type ProviderStore, type StoreProvider } from '../../src/providers/store/storeProvider.ts';
import type { CreateStoreOptions } from '../../src/testing/StoreTwinControl.ts';

/** One store a case works on. */
export interface ArenaStore {
  readonly baseUrl: string;
  readonly languages: readonly string[];
  readonly mainLanguage: string;
  /** The store's token (twin) or the configured one (live); never printed. */
  readonly token: string;
  /** The clock the store's bucket leaks by: linked to the twin's virtual clock, or the wall clock. */
  readonly clock: Clock;
  /** A client on this store; unpaced and unretried unless asked, so what the provider says is seen. */
  client(options?: { token?: string; pace?: boolean; clock?: Clock; onExchange?: (exchange: Exchange) => void }): StoreClient;
  /** Twin only: another token with its own bucket. */
  addToken?(): Promise<string>;
  /** Gives the store back (twin: deletes it). */
  close(): Promise<void>;
}

export interface StoreArena {
  readonly kind: 'twin' | 'live';
  /** Twin only: a fresh store arranged as asked. */
  openTwinStore(options?: CreateStoreOptions): Promise<ArenaStore>;
  /** The store every case shares: on live the configured one; on the twin a fresh one. */
  openStore(options?: CreateStoreOptions): Promise<ArenaStore>;
  /** Live: writes allowed (STORE_ALLOW_WRITES=1); always on the twin. */
  readonly allowWrites: boolean;
}

const USER_AGENT = 'api-contract-harness properties (https://example.invalid/api-contract-harness)';

/**
 * A provider's store as a property sees it. Clients never retry on the twin, so
 * every answer is seen. On live a paced client retries a 429 (after the Reset it
 * names): the bucket is shared with the previous tests and the world, which a
 * fresh pacer cannot know of.
 */
function arenaStore(store: ProviderStore, live: boolean): ArenaStore {
  const control = store.twin?.control;
  const storeId = Number(store.storeId);
  return {
    baseUrl: store.baseUrl,
    languages: store.languages,
    mainLanguage: store.mainLanguage,
    token: store.token,
    clock: store.clock,
    client: (options = {}) =>
      store.client({
        pace: options.pace ?? false,
        retry: { maxRetries: live && options.pace ? 3 : 0 },
        clock: options.clock ?? store.clock,
        ...(options.token ? { token: options.token } : {}),
        ...(options.onExchange ? { onExchange: options.onExchange } : {}),
      }),
    ...(control ? { addToken: async () => (await control.addToken(storeId)).token } : {}),
    close: () => store.close(),
  };
}

/** A twin at `twinUrl` (its origin): every store is created for the case and deleted after it. */
export function twinArena(twinUrl: string, userAgent = USER_AGENT): StoreArena {
  const provider = twinStoreProvider({ twinUrl, userAgent }, 'twin');
  const openTwinStore = async (options: CreateStoreOptions = {}): Promise<ArenaStore> => arenaStore(await provider.openStore(options), false);
  return { kind: 'twin', openTwinStore, openStore: openTwinStore, allowWrites: true };
}

/** The configured live store: read as it is; nothing about it can be arranged. */
export function liveArena(provider: StoreProvider): StoreArena {
  return {
    kind: 'live',
    openTwinStore: () => {
      throw new Error('openTwinStore needs the twin target: this property arranges state only the twin can (tag it @twin-only).');
    },
    openStore: async () => arenaStore(await provider.openStore(), true),
    allowWrites: provider.allowWrites,
  };
}

/** The arena of the configured target (HARNESS_TARGET). */
export async function storeArenaForTarget(): Promise<StoreArena> {
  const config = harnessConfig();
  if (config.store.mode === 'twin') return twinArena(config.store.twinUrl, config.store.userAgent);
  if (config.store.mode === 'off') throw new Error(`storeArenaForTarget: ${config.store.reason}`);
  // The store's languages are read once, through the provider, within the request budget.
  return liveArena(liveStoreProvider(config.store, config.target));
}
