/**
 * The store under test, one way for every caller: the suites' fixtures, the
 * properties' arenas, the pact provider states and the benches are adapters
 * over it. It alone decides how a store client is made (User-Agent, secrets,
 * clock, and on live the worker's guard: the request budget and the write flag),
 * how a twin store is opened and given back, and how a live store's languages
 * are probed. Its variants: the twin (a fresh store per open, on a virtual clock
 * linked to the twin's) and live (the configured store; on replay on a virtual
 * clock, answered from the recordings).
 */
import { StoreClient } from '../../clients/store/StoreClient.ts';
import type { Exchange, RetryOptions } from '../../clients/store/types.ts';
import { replayClock, systemClock, type Clock } from '../../clock/Clock.ts';
import { liveStoreBaseUrl, type LiveStoreConfig, type Target, type TwinStoreConfig } from '../../config/harnessConfig.ts';
import { STORE_CONTRACT } from '../../rules/storeContract.ts';
import { clientStack } from '../clientStack.ts';
import { StoreTwinControl, TwinLinkedClock, type CreateStoreOptions, type TwinStoreInfo } from '../../testing/StoreTwinControl.ts';

/** What a caller may choose of one client; the rest is the provider's. */
export interface StoreClientChoices {
  /** Another token of the same store (twin: one `addToken` made). */
  readonly token?: string;
  readonly pace?: boolean;
  readonly retry?: RetryOptions;
  readonly clock?: Clock;
  readonly onExchange?: (exchange: Exchange) => void;
}

/** One store a caller works on. */
export interface ProviderStore {
  readonly baseUrl: string;
  readonly storeId: string;
  /** The store's token: never printed (every client redacts it). */
  readonly token: string;
  readonly languages: readonly string[];
  readonly mainLanguage: string;
  /** The clock its bucket leaks by: the twin's virtual clock, the replay's, or the wall clock. */
  readonly clock: Clock;
  /** A client of this store, made the one way. Live, without choices: the worker's one paced client, which probed the languages. */
  client(choices?: StoreClientChoices): StoreClient;
  /** The twin behind it; undefined on live. */
  readonly twin: { readonly info: TwinStoreInfo; readonly control: StoreTwinControl; readonly clock: TwinLinkedClock } | undefined;
  /** Gives the store back (twin: deletes it; live: nothing). */
  close(): Promise<void>;
}

export interface StoreProvider {
  readonly kind: 'twin' | 'live';
  readonly target: Target;
  readonly allowWrites: boolean;
  /** Twin: a fresh store arranged as asked. Live: the configured store, its languages probed once. */
  openStore(options?: CreateStoreOptions): Promise<ProviderStore>;
  /** The twin's control API; undefined on live. */
  readonly control: StoreTwinControl | undefined;
}

export interface ProviderOptions {
  /** Sees every exchange of every client the provider makes (a test's attachments). */
  readonly onExchange?: (exchange: Exchange) => void;
  /** Instead of the configured one (the properties name themselves; a bench its own). */
  readonly userAgent?: string;
}

/** Made the one way: the caller's choices over the provider's User-Agent, secrets and clock, on the one client stack. */
function makeClient(
  base: { baseUrl: string; token: string; userAgent: string; clock: Clock | undefined; secrets: readonly string[]; reaches: 'twin' | 'service' },
  onExchange: ((exchange: Exchange) => void) | undefined,
  choices: StoreClientChoices,
): StoreClient {
  const clock = choices.clock ?? base.clock;
  return new StoreClient({
    baseUrl: base.baseUrl,
    token: choices.token ?? base.token,
    userAgent: base.userAgent,
    secrets: [...base.secrets, ...(choices.token ? [choices.token] : [])],
    ...(clock ? { clock } : {}),
    ...(choices.pace === undefined ? {} : { pace: choices.pace }),
    ...(choices.retry ? { retry: choices.retry } : {}),
    // The stack every store request passes (live and record: the worker's guard, the write flag and the request budget).
    ...clientStack<Exchange>('store', base.reaches, (exchange) => {
      onExchange?.(exchange);
      choices.onExchange?.(exchange);
    }),
  });
}

/** The twin variant: every open is a fresh store on a virtual clock linked to the twin's. */
export function twinStoreProvider(config: Pick<TwinStoreConfig, 'twinUrl' | 'userAgent'>, target: Target, options: ProviderOptions = {}): StoreProvider {
  const control = new StoreTwinControl(config.twinUrl);
  const userAgent = options.userAgent ?? config.userAgent;
  return {
    kind: 'twin',
    target,
    allowWrites: true,
    control,
    openStore: async (arrange = {}) => {
      // Under a given id the twin builds the seeded store's preset unless one is asked.
      const info = await control.createStore({ ...(arrange.storeId === undefined ? { preset: 'multi-language' } : {}), clock: 'virtual', ...arrange });
      const clock = new TwinLinkedClock(control, info.controlId, info.now);
      const base = { baseUrl: info.baseUrl, token: info.token, userAgent, clock, secrets: [info.token], reaches: 'twin' as const };
      return {
        baseUrl: info.baseUrl,
        storeId: String(info.storeId),
        token: info.token,
        languages: info.languages,
        mainLanguage: info.mainLanguage,
        clock,
        client: (choices = {}) => makeClient(base, options.onExchange, choices),
        twin: { info, control, clock },
        close: () => control.deleteStore(info.controlId).catch(() => undefined),
      };
    },
  };
}

/**
 * The live variant: the configured store. Its languages are read once, through
 * the first client, since every request costs room in the store's one bucket:
 * GET /store, or, where that is not offered, the keys of a product's name.
 */
export interface LiveStoreProvider extends StoreProvider {
  readonly kind: 'live';
  /**
   * A client of the configured store without opening it (no languages probe). Without choices: the
   * worker's one paced client, whose pacer must see every request to the store's one bucket.
   */
  client(choices?: StoreClientChoices): StoreClient;
}

export function liveStoreProvider(config: LiveStoreConfig, target: Target, options: ProviderOptions = {}): LiveStoreProvider {
  const baseUrl = liveStoreBaseUrl(config, STORE_CONTRACT.version);
  // Replay: a virtual clock, so the pacer's waits cost nothing; live: the wall clock.
  const clock = replayClock(target);
  const base = { baseUrl, token: config.token, userAgent: options.userAgent ?? config.userAgent, clock, secrets: [config.token], reaches: 'service' as const };
  let sharedClient: StoreClient | undefined;
  const client = (choices: StoreClientChoices = {}): StoreClient =>
    Object.keys(choices).length > 0 ? makeClient(base, options.onExchange, choices) : (sharedClient ??= makeClient(base, options.onExchange, {}));
  let opened: Promise<ProviderStore> | undefined;
  return {
    kind: 'live',
    target,
    allowWrites: config.allowWrites,
    control: undefined,
    client,
    openStore: () =>
      (opened ??= (async () => {
        const shared = client();
        const info = await shared.getStore().catch(() => undefined);
        const languages = info?.languages?.length ? [...info.languages] : await languagesFromCatalogue(shared);
        return {
          baseUrl,
          storeId: config.storeId,
          token: config.token,
          languages,
          mainLanguage: info?.mainLanguage ?? languages[0] ?? '',
          clock: clock ?? systemClock,
          client,
          twin: undefined,
          close: async () => undefined,
        };
      })()),
  };
}

/** Languages of a live store when GET /store is not available: the keys of a product's name. */
async function languagesFromCatalogue(client: StoreClient): Promise<string[]> {
  const page = await client.listProducts({ per_page: 1 }).catch(() => undefined);
  const name = (page?.items[0] as { name?: unknown } | undefined)?.name;
  return name && typeof name === 'object' ? Object.keys(name) : [];
}
