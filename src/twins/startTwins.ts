/**
 * Both twins in one call, for a team's own tests (`import { startTwins } from 'api-contract-harness/twins'`)
 * and for `npm run twins` / `npx api-contract-harness twins`: the base URLs, the seeded stores, tokens and
 * users, the seeded app of the install flow, and a client of each control API (fresh store, reset, clock,
 * suspension, faults). Free ports unless asked for fixed ones; the real clock unless asked for a virtual one.
 */
import { MEDIA_CONTRACT } from '../rules/mediaContract.ts';
import type { StorePlan } from '../rules/storeContract.ts';
import { MediaTwinControl } from '../testing/MediaTwinControl.ts';
import { StoreTwinControl } from '../testing/StoreTwinControl.ts';
import { SEEDED_USERS, type SeededUser } from './media/seed.ts';
import { MEDIA_SEED } from './media/seedFacts.ts';
import { startMediaTwin } from './media/server.ts';
import { SEEDED_APP } from './store/install/apps.ts';
import { SEEDED_STORES } from './store/seed.ts';
import { startStoreTwin } from './store/server.ts';

export interface StartTwinsOptions {
  /** The address both listen on; default 127.0.0.1 (0.0.0.0 serves other containers of a CI job). */
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly storePort?: number;
  /** 0 (the default) picks a free port. */
  readonly mediaPort?: number;
  /** The clock of the seeded stores; default real. A virtual one moves only through the control API. */
  readonly clock?: 'real' | 'virtual';
  /** The media twin's clock; default the stores' (`clock`). */
  readonly mediaClock?: 'real' | 'virtual';
  /** The seeded stores' plan: standard (the contract's bucket, the default) or plus. */
  readonly storePlan?: StorePlan;
}

/** A seeded store, as a client reaches it. */
export interface TwinStore {
  readonly id: number;
  /** `{url}/v1/{id}`: what the real API calls the store's base. */
  readonly baseUrl: string;
  /** For the `Authentication: bearer <token>` header. */
  readonly token: string;
  /** The key of its webhook signatures (X-Linkedstore-HMAC-SHA256): what the team's handler checks deliveries with. */
  readonly appSecret: string;
  readonly languages: readonly string[];
  readonly mainLanguage: string;
}

export interface Twins {
  readonly store: {
    /** `http://{host}:{port}`: the API under /v1/{store_id}, the install flow under /apps, product pages under /storefront. */
    readonly url: string;
    readonly stores: readonly TwinStore[];
    /** The seeded app of the install flow (OAuth 2): its id, client secret, redirect URL and scopes. */
    readonly app: typeof SEEDED_APP;
    /**
     * The control API (/__twin): createStore (real clock unless `clock: 'virtual'` is asked), reset, advanceClock, suspend,
     * resume, injectFaults, and webhooks: registerWebhooks (point a store's webhooks at your handler), deliveries (every
     * attempt), flushDeliveries; advancing a virtual clock runs the retries it passes over (docs/webhooks.md).
     */
    readonly control: StoreTwinControl;
  };
  readonly media: {
    /** `http://{host}:{port}/api/edge`: the JSON:API base. */
    readonly url: string;
    /** Where a user's token comes from (grant_type=password). */
    readonly oauthTokenUrl: string;
    readonly users: readonly SeededUser[];
    /** The control API (/__twin): reset to the seed, read or move the clock. */
    readonly control: MediaTwinControl;
  };
  /** Stops both; resolves once their ports are free. */
  close(): Promise<void>;
}

/** A twin that did not start: which one, on which port, and why (EADDRINUSE, EACCES, …). */
export class TwinsStartError extends Error {
  override name = 'TwinsStartError';
  readonly twin: 'store' | 'media';
  readonly port: number;

  constructor(twin: 'store' | 'media', port: number, cause: unknown) {
    super(`the ${twin} twin could not start on port ${port}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.twin = twin;
    this.port = port;
  }

  /** The error's code from the operating system (EADDRINUSE, EACCES), when it has one. */
  get code(): string | undefined {
    return (this.cause as NodeJS.ErrnoException | undefined)?.code;
  }

  /** What went wrong and the fix, in words; `moveWith` names how the caller sets each twin's port (a flag, a variable). */
  describe(host: string, moveWith: Readonly<Record<'store' | 'media', string>>): string {
    const setting = moveWith[this.twin];
    if (this.code === 'EADDRINUSE') return `port ${this.port} on ${host} is already in use. Stop what is using it, or give ${setting} a free port.`;
    if (this.code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine. Give --host an address it has (127.0.0.1, 0.0.0.0).`;
    if (this.code === 'EACCES') return `no permission to listen on port ${this.port}. Give ${setting} a port above 1023.`;
    return this.message;
  }
}

export async function startTwins(options: StartTwinsOptions = {}): Promise<Twins> {
  const { host = '127.0.0.1', storePort = 0, mediaPort = 0, clock = 'real', storePlan = 'standard' } = options;
  const mediaClock = options.mediaClock ?? clock;
  const store = await startStoreTwin({ port: storePort, host, clock, plan: storePlan }).catch((error: unknown) => {
    throw new TwinsStartError('store', storePort, error);
  });
  const media = await startMediaTwin({ port: mediaPort, host, clock: mediaClock }).catch(async (error: unknown) => {
    await store.close();
    throw new TwinsStartError('media', mediaPort, error);
  });
  return {
    store: {
      url: store.url,
      stores: SEEDED_STORES.map(({ id, token, appSecret, languages, mainLanguage }) => ({
        id,
        baseUrl: `${store.url}/v1/${id}`,
        token,
        appSecret,
        languages,
        mainLanguage,
      })),
      app: SEEDED_APP,
      control: new StoreTwinControl(store.url),
    },
    media: {
      url: `${media.url}${MEDIA_CONTRACT.edgePrefix}`,
      oauthTokenUrl: `${media.url}${MEDIA_CONTRACT.oauthTokenPath}`,
      users: SEEDED_USERS,
      control: new MediaTwinControl(media.url),
    },
    close: async () => {
      await Promise.all([store.close(), media.close()]);
    },
  };
}

/** The client id the media twin's token endpoint accepts (optional there, as on the real service). */
export const MEDIA_OAUTH_CLIENT_ID = MEDIA_SEED.oauthClientId;
