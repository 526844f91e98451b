/**
 * The doctor's way onto the network: the typed clients, each behind one
 * dispatcher with short timeouts (a host that never answers is a finding, not
 * a hang) and the live request guard, so the doctor stays within
 * LIVE_REQUEST_BUDGET and can say what it sent.
 */
import { Agent } from 'undici';
import { HARNESS_USER_AGENT, liveStoreBaseUrl, type LiveMediaConfig, type LiveStoreConfig } from '../config/harnessConfig.ts';
import { MediaClient } from '../clients/media/MediaClient.ts';
import { StoreClient } from '../clients/store/StoreClient.ts';
import { STORE_CONTRACT } from '../rules/storeContract.ts';
import type { Exchange } from '../http/Exchange.ts';
import { BUDGET_SPENT_CODE, LiveRequestGuard, type LiveApi } from '../testing/LiveRequestGuard.ts';

export interface DoctorHttpOptions {
  /** LIVE_REQUEST_BUDGET: the doctor never sends more. */
  readonly budget: number;
  /** Connecting, and waiting for an answer's headers and body; default 10 s. */
  readonly timeoutMs?: number;
}

/** One retry, soon: a blip should not fail the doctor, a dead host should not keep it waiting. */
const RETRY = { maxRetries: 1, baseDelayMs: 300, maxDelayMs: 2_000 } as const;

export class DoctorHttp {
  readonly budget: number;
  readonly #agent: Agent;
  readonly #guard: LiveRequestGuard;
  readonly #sent = { store: 0, media: 0 };

  constructor(options: DoctorHttpOptions) {
    const timeout = options.timeoutMs ?? 10_000;
    this.budget = options.budget;
    this.#agent = new Agent({ connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout });
    // No ledger: the doctor is a run of its own, and its few requests are all it may count.
    this.#guard = new LiveRequestGuard(options.budget);
  }

  storeClient(store: LiveStoreConfig): StoreClient {
    return new StoreClient({
      baseUrl: liveStoreBaseUrl(store, STORE_CONTRACT.version),
      token: store.token,
      userAgent: store.userAgent,
      retry: RETRY,
      dispatcher: this.#guard.dispatcher('store', this.#agent),
      onExchange: (exchange) => this.#count('store', exchange),
    });
  }

  mediaClient(media: LiveMediaConfig): MediaClient {
    return new MediaClient({
      baseUrl: media.apiUrl,
      ...(media.token ? { token: media.token } : {}),
      userAgent: HARNESS_USER_AGENT,
      retry: RETRY,
      dispatcher: this.#guard.dispatcher('media', this.#agent),
      onExchange: (exchange) => this.#count('media', exchange),
    });
  }

  /** Requests that left, per API (refused ones did not). */
  get sent(): { readonly store: number; readonly media: number } {
    return { ...this.#sent };
  }

  /** Every attempt that left counts, answered or not; one the guard refused never left. */
  #count(api: LiveApi, exchange: Exchange): void {
    this.#guard.sent(api, exchange);
    if (exchange.error?.code !== BUDGET_SPENT_CODE) this.#sent[api] += 1;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}
