import type { StorePlan } from '../rules/storeContract.ts';
/**
 * Client of the store twin's control API (/__twin): how suites arrange state
 * the real service gives no handle on (stores, the clock, suspension, faults,
 * webhook deliveries). Only the twin target has it.
 */
import { TwinControl } from './TwinControl.ts';
import { request } from 'undici';
import { VirtualClock, type Clock } from '../clock/Clock.ts';
import type { DeliveryRecord } from '../twins/store/webhookOutbox.ts';

export interface TwinStoreInfo {
  /** The id its paths show. */
  storeId: number;
  /** The handle of /__twin/stores/{controlId}/…: the id, but for a store made under another store's id (`storeId` asked). */
  controlId: number;
  token: string;
  appSecret: string;
  baseUrl: string;
  languages: string[];
  mainLanguage: string;
  clock: 'virtual' | 'real';
  metered: boolean;
  now: number;
}

/** One delivery with every attempt (GET /__twin/stores/{id}/deliveries); its states and fields: webhookOutbox.ts. */
export type TwinDelivery = DeliveryRecord;

/** A webhook as the Store API answers its registration. */
export interface TwinWebhook {
  id: number;
  event: string;
  url: string;
  created_at: string;
  updated_at: string;
}

export interface CreateStoreOptions {
  /**
   * The id its paths show (a pact's literal store id): the store is built under it, its records numbered as the
   * seeded store of that id has them, and served only to its own token where another store has the id.
   */
  storeId?: number;
  preset?: 'multi-language' | 'single-language';
  languages?: string[];
  mainLanguage?: string;
  products?: number;
  /** The category tree: the preset's by default; 'flat' has top-level categories only. */
  categoryTree?: 'three-level' | 'two-level' | 'flat';
  clock?: 'virtual' | 'real';
  /**
   * Default true. False: requests never fill the store's leaky bucket, so none
   * is refused with 429 and the rate headers always read an empty bucket;
   * every other step answers as usual. For throughput benchmarks (bench/).
   */
  metered?: boolean;
  /** The bucket's plan: standard (the contract's 40 at 2/s) by default; plus is 10 times both (field notes). */
  plan?: StorePlan;
}

export class StoreTwinControl extends TwinControl {
  constructor(twinUrl: string) {
    super(twinUrl, 'Store twin');
  }

  health(): Promise<{ ok: boolean }> {
    return this.call('GET', '/health');
  }

  /** A fresh store; on a virtual clock unless `clock: 'real'` is asked (the control API's own default is real). */
  /** Back to the seed: the seeded stores as they started, every created store gone. */
  reset(): Promise<{ ok: boolean; stores: TwinStoreInfo[] }> {
    return this.call('POST', '/reset');
  }

  listStores(): Promise<TwinStoreInfo[]> {
    return this.call('GET', '/stores');
  }

  createStore(options: CreateStoreOptions = {}): Promise<TwinStoreInfo> {
    return this.call('POST', '/stores', { clock: 'virtual', ...options });
  }

  deleteStore(storeId: number): Promise<void> {
    return this.call('DELETE', `/stores/${storeId}`);
  }

  advanceClock(storeId: number, advanceMs: number): Promise<{ now: number; iso: string }> {
    return this.call('POST', `/stores/${storeId}/clock`, { advanceMs });
  }

  suspend(storeId: number): Promise<{ state: string }> {
    return this.call('POST', `/stores/${storeId}/suspend`);
  }

  resume(storeId: number): Promise<{ state: string }> {
    return this.call('POST', `/stores/${storeId}/resume`);
  }

  addToken(storeId: number): Promise<{ token: string }> {
    return this.call('POST', `/stores/${storeId}/tokens`);
  }

  injectFaults(storeId: number, fault: { status: number; count: number; retryAfterMs?: number }): Promise<unknown> {
    return this.call('POST', `/stores/${storeId}/faults`, fault);
  }

  clearFaults(storeId: number): Promise<void> {
    return this.call('DELETE', `/stores/${storeId}/faults`);
  }

  /** Every webhook delivery of the store, oldest first, each with its attempts (number, time, status or error) and the next one due. */
  deliveries(storeId: number): Promise<TwinDelivery[]> {
    return this.call('GET', `/stores/${storeId}/deliveries`);
  }

  /**
   * Waits for the attempts under way and makes those due by the store's clock, then lists the deliveries. On a
   * virtual clock, `advanceClock` already runs the retries it passes over (each at its due time) before it answers.
   */
  flushDeliveries(storeId: number): Promise<TwinDelivery[]> {
    return this.call('POST', `/stores/${storeId}/deliveries/flush`);
  }

  /**
   * Points the store's webhooks at a handler: registers `url` for each event through the Store API itself
   * (POST /v1/{id}/webhooks with the store's token), as the team's app would. The twin calls http URLs on
   * 127.0.0.1, localhost and [::1] (https elsewhere is registered, never called).
   */
  async registerWebhooks(storeId: number, url: string, events: readonly string[]): Promise<TwinWebhook[]> {
    const store = await this.call<{ baseUrl: string; token: string }>('GET', `/stores/${storeId}`);
    const created: TwinWebhook[] = [];
    for (const event of events) {
      const res = await request(`${store.baseUrl}/webhooks`, {
        method: 'POST',
        headers: {
          Authentication: `bearer ${store.token}`,
          'User-Agent': 'api-contract-harness twin control (https://example.invalid)',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ event, url }),
      });
      const text = await res.body.text();
      if (res.statusCode !== 201) throw new Error(`${this.name}: registering ${event} for ${url} on store ${storeId} answered ${res.statusCode}: ${text}`);
      created.push(JSON.parse(text) as TwinWebhook);
    }
    return created;
  }
}

/**
 * A clock in the test process that moves with a twin store's virtual clock:
 * `sleep` advances both, so a client pacing itself on this clock drains the
 * twin's bucket without waiting in wall time.
 *
 * Sleeps overlap as they would on a real clock: each runs to a deadline (now
 * + ms at the call), and the clock moves only as far as the latest deadline.
 * Two sleeps of 500 ms begun together end together, 500 ms later, rather than
 * 1000 ms later, which a pacer racing a sleep against an answer relies on.
 */
export class TwinLinkedClock implements Clock {
  readonly #local: VirtualClock;
  readonly #control: StoreTwinControl;
  readonly #storeId: number;
  /** Advances run one after the other, so each sees where the last one left the clock. */
  #advancing: Promise<unknown> = Promise.resolve();

  constructor(control: StoreTwinControl, storeId: number, now: number) {
    this.#control = control;
    this.#storeId = storeId;
    this.#local = new VirtualClock(now);
  }

  now(): number {
    return this.#local.now();
  }

  async sleep(ms: number): Promise<void> {
    const step = Math.max(0, Math.ceil(ms));
    if (step === 0) return;
    const deadline = this.#local.now() + step;
    const advance = this.#advancing.then(async () => {
      const behind = deadline - this.#local.now();
      if (behind <= 0) return;
      const { now } = await this.#control.advanceClock(this.#storeId, behind);
      this.#local.set(now);
    });
    this.#advancing = advance.catch(() => undefined);
    await advance;
  }
}
