/**
 * Where a store property runs: a twin (the suites' twin, or one started with a
 * deliberate defect) where every case arranges a fresh store through the
 * control API and time is virtual, or the configured live store, which can be
 * read but not arranged, on wall-clock time.
 */
import { liveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { StoreClient } from '../../src/clients/store/StoreClient.ts';
import type { Exchange } from '../../src/clients/store/types.ts';
import type { Clock } from '../../src/clock/Clock.ts';
import { systemClock } from '../../src/clock/Clock.ts';
import { harnessConfig, liveStoreBaseUrl, type LiveStoreConfig } from '../../src/config/harnessConfig.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { StoreTwinControl, TwinLinkedClock, type CreateStoreOptions, type TwinStoreInfo } from '../../src/testing/StoreTwinControl.ts';

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
 * Clients never retry on the twin, so every answer is seen. On live a paced
 * client retries a 429 (after the Reset it names): the bucket is shared with
 * the previous tests and the world, which a fresh pacer cannot know of.
 */
function clientFor(baseUrl: string, token: string, userAgent: string, clock: Clock, secrets: string[], live = false) {
  // Live: through the worker's guard like the suites' clients (the request budget, the write flag).
  const guard = live ? liveRequestGuard() : undefined;
  return (options: Parameters<ArenaStore['client']>[0] = {}): StoreClient =>
    new StoreClient({
      baseUrl,
      token: options.token ?? token,
      userAgent,
      clock: options.clock ?? clock,
      pace: options.pace ?? false,
      retry: { maxRetries: live && options.pace ? 3 : 0 },
      secrets: [...secrets, ...(options.token ? [options.token] : [])],
      ...(guard ? { dispatcher: guard.dispatcher('store') } : {}),
      onExchange: (exchange) => {
        guard?.sent('store', exchange);
        options.onExchange?.(exchange);
      },
    });
}

/** A twin at `twinUrl` (its origin): every store is created for the case and deleted after it. */
export function twinArena(twinUrl: string, userAgent = USER_AGENT): StoreArena {
  const control = new StoreTwinControl(twinUrl);
  const openTwinStore = async (options: CreateStoreOptions = {}): Promise<ArenaStore> => {
    const info: TwinStoreInfo = await control.createStore({ clock: 'virtual', ...options });
    const clock = new TwinLinkedClock(control, info.storeId, info.now);
    return {
      baseUrl: info.baseUrl,
      languages: info.languages,
      mainLanguage: info.mainLanguage,
      token: info.token,
      clock,
      client: clientFor(info.baseUrl, info.token, userAgent, clock, [info.token]),
      addToken: async () => (await control.addToken(info.storeId)).token,
      close: () => control.deleteStore(info.storeId).catch(() => undefined),
    };
  };
  return { kind: 'twin', openTwinStore, openStore: openTwinStore, allowWrites: true };
}

/** The configured live store: read as it is; nothing about it can be arranged. */
export function liveArena(config: LiveStoreConfig, languages: { languages: string[]; mainLanguage: string }): StoreArena {
  const baseUrl = liveStoreBaseUrl(config, STORE_CONTRACT.version);
  const store: ArenaStore = {
    baseUrl,
    languages: languages.languages,
    mainLanguage: languages.mainLanguage,
    token: config.token,
    clock: systemClock,
    client: clientFor(baseUrl, config.token, config.userAgent, systemClock, [config.token], true),
    close: async () => undefined,
  };
  return {
    kind: 'live',
    openTwinStore: () => {
      throw new Error('openTwinStore needs the twin target: this property arranges state only the twin can (tag it @twin-only).');
    },
    openStore: async () => store,
    allowWrites: config.allowWrites,
  };
}

/** The arena of the configured target (HARNESS_TARGET). */
export async function storeArenaForTarget(): Promise<StoreArena> {
  const config = harnessConfig();
  if (config.store.mode === 'twin') return twinArena(config.store.twinUrl, config.store.userAgent);
  const live = config.store;
  if (live.mode === 'off') throw new Error(`storeArenaForTarget: ${live.reason}`);
  // The store's languages, read once through a paced client: GET /store costs one request of the budget.
  const probe = new StoreClient({ baseUrl: liveStoreBaseUrl(live, STORE_CONTRACT.version), token: live.token, userAgent: live.userAgent });
  const info = await probe.getStore().catch(() => undefined);
  const languages = info?.languages?.length ? [...info.languages] : [];
  return liveArena(live, { languages, mainLanguage: info?.mainLanguage ?? languages[0] ?? '' });
}
