import type { StorePlan } from '../../rules/storeContract.ts';
import type { Clock } from '../../clock/Clock.ts';
import { bucketShape, type StoreTwinBreak } from './twinBreaks.ts';
import { LeakyBucket } from './leakyBucket.ts';
import type { LocalizedText } from './localized.ts';
import type { Category, Product } from './records.ts';
import type { Webhook, WebhookEvent } from './resources/webhooks.ts';
import { RenderCache } from '../serving/renderCache.ts';
import { toWholeSecond } from './timestamps.ts';
import type { WebhookOutbox } from './webhookOutbox.ts';
import { deliveryBody } from './webhookDelivery.ts';

export type ClockMode = 'virtual' | 'real';

/** The only state of a store the contract shows (States and transitions). */
export type AccessState = 'accessible' | 'suspended';

/** Statuses the control API can inject: the rate limit and the retryable 5xx. */
export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

export interface InjectedFault {
  readonly status: FaultStatus;
  remaining: number;
  readonly retryAfterMs: number | undefined;
}

/** Who a store is: fixed when it is built. */
export interface StoreProfile {
  /** The id the API's paths and bodies show. */
  readonly id: number;
  /**
   * The control API's handle: the id itself, except for a store made under an id another store already
   * answers to (a pact's literal store id), which is served only to its own tokens.
   */
  readonly controlId: number;
  readonly name: LocalizedText;
  readonly languages: readonly string[];
  readonly mainLanguage: string;
  readonly token: string;
  readonly appSecret: string;
  readonly clockMode: ClockMode;
  readonly clock: Clock;
  /** Seeded stores come back on reset; created ones are dropped. */
  readonly seeded: boolean;
  readonly createdAt: number;
  /** False: requests never fill the bucket, so none is refused for the rate (a store for throughput benchmarks). */
  readonly metered: boolean;
  /** The bucket's plan (field notes: higher plans multiply the limit by 10). */
  readonly plan: StorePlan;
  /** A deliberate break (twinBreaks.ts): only tests that prove the properties can fail set one. */
  readonly twinBreak?: StoreTwinBreak | undefined;
}

/** Resource ids of a store start here, so ids of different stores never meet. */
function idBaseOf(storeId: number): number {
  return storeId * 1_000_000;
}

/**
 * One store of the twin: its catalogue, webhooks, tokens and their buckets,
 * clock, access state and injected faults. Stores share nothing, so parallel
 * tests each using their own store never see each other.
 */
export class StoreState {
  readonly id: number;
  readonly controlId: number;
  readonly name: LocalizedText;
  readonly languages: readonly string[];
  readonly mainLanguage: string;
  readonly appSecret: string;
  readonly clockMode: ClockMode;
  readonly clock: Clock;
  readonly seeded: boolean;
  readonly createdAt: number;
  readonly metered: boolean;
  readonly plan: StorePlan;
  readonly twinBreak: StoreTwinBreak | undefined;
  /** Insertion order is id order: ids only grow, so lists need no sorting. */
  readonly products = new Map<number, Product>();
  readonly categories = new Map<number, Category>();
  readonly webhooks = new Map<number, Webhook>();
  readonly outbox: WebhookOutbox;
  /** Rendered products and categories until the next write (the API pipeline and the control API empty it). */
  readonly rendered = new RenderCache<object>();
  readonly #tokens: string[];
  readonly #scopes = new Map<string, readonly string[]>();
  readonly #buckets = new Map<string, LeakyBucket>();
  readonly #children = new Map<number, Set<number>>();
  #faults: InjectedFault[] = [];
  #access: AccessState = 'accessible';
  #lastId: number;

  constructor(profile: StoreProfile, outbox: WebhookOutbox) {
    this.id = profile.id;
    this.controlId = profile.controlId;
    this.name = profile.name;
    this.languages = profile.languages;
    this.mainLanguage = profile.mainLanguage;
    this.appSecret = profile.appSecret;
    this.clockMode = profile.clockMode;
    this.clock = profile.clock;
    this.seeded = profile.seeded;
    this.createdAt = profile.createdAt;
    this.metered = profile.metered;
    this.plan = profile.plan;
    this.twinBreak = profile.twinBreak;
    this.#tokens = [profile.token];
    this.outbox = outbox;
    // store.webhooks.not-called-while-suspended: retries falling due while suspended are skipped, not held.
    outbox.pauseWhile(() => this.#access === 'suspended');
    this.#lastId = idBaseOf(profile.id);
  }

  /** The next resource id: one ascending sequence for every kind of resource. */
  nextId(): number {
    this.#lastId += 1;
    return this.#lastId;
  }

  /** Now on the store's clock, at whole seconds as timestamps are shown. */
  timestamp(): number {
    return toWholeSecond(this.clock.now());
  }

  get tokens(): readonly string[] {
    return this.#tokens;
  }

  hasToken(token: string): boolean {
    return this.#tokens.includes(token);
  }

  /** Another token for the same store, with its own bucket. */
  addToken(): string {
    // After the first token, which is unique in the twin (a store under another's id has its own).
    const token = `${this.#tokens[0] ?? `twin-token-${this.controlId}`}-${this.#tokens.length + 1}`;
    this.#tokens.push(token);
    return token;
  }

  /** A token the install flow granted, with its scopes; `replaced` (the app's previous token) stops working. */
  grantToken(token: string, scopes: readonly string[], replaced?: string): void {
    if (replaced !== undefined) this.revokeToken(replaced);
    this.#tokens.push(token);
    this.#scopes.set(token, scopes);
  }

  revokeToken(token: string): void {
    const at = this.#tokens.indexOf(token);
    if (at >= 0) this.#tokens.splice(at, 1);
    this.#scopes.delete(token);
    this.#buckets.delete(token);
  }

  /** The scopes an installed app's token carries; undefined for the control API's tokens, which may do anything. */
  scopesOf(token: string): readonly string[] | undefined {
    return this.#scopes.get(token);
  }

  /** store.ratelimit.per-store-and-token: one bucket per token of this store. */
  bucketFor(token: string): LeakyBucket {
    let bucket = this.#buckets.get(token);
    if (!bucket) {
      const shape = bucketShape(this.twinBreak, this.plan);
      bucket = new LeakyBucket(this.clock.now(), shape.capacity, shape.leakPerSecond, shape.admits);
      this.#buckets.set(token, bucket);
    }
    return bucket;
  }

  get access(): AccessState {
    return this.#access;
  }

  /** store.webhooks.suspension-events: app/suspended goes out at the transition, then nothing. */
  suspend(): AccessState {
    if (this.#access === 'suspended') return this.#access;
    this.#emitAlways('app/suspended', this.id);
    this.#access = 'suspended';
    return this.#access;
  }

  resume(): AccessState {
    if (this.#access === 'accessible') return this.#access;
    this.#access = 'accessible';
    this.#emitAlways('app/resumed', this.id);
    return this.#access;
  }

  /** store.webhooks.not-called-while-suspended */
  emit(event: WebhookEvent, resourceId: number): void {
    if (this.#access === 'suspended') return;
    this.#emitAlways(event, resourceId);
  }

  #emitAlways(event: WebhookEvent, resourceId: number): void {
    const body = deliveryBody(this.id, event, resourceId);
    for (const webhook of this.webhooks.values()) {
      if (webhook.event === event) this.outbox.enqueue({ event, url: webhook.url, body, secret: this.appSecret });
    }
  }

  get faults(): readonly InjectedFault[] {
    return this.#faults;
  }

  addFault(fault: InjectedFault): void {
    this.#faults.push(fault);
  }

  clearFaults(): void {
    this.#faults = [];
  }

  /** The fault that answers this call, counting it down; undefined when none is pending. */
  takeFault(): InjectedFault | undefined {
    const fault = this.#faults[0];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.shift();
    return fault;
  }

  /** Ids of the direct children of a category, ascending (store.categories.tree-references). */
  childrenOf(categoryId: number): number[] {
    const children = this.#children.get(categoryId);
    return children ? [...children].sort((a, b) => a - b) : [];
  }

  linkChild(parentId: number, childId: number): void {
    let children = this.#children.get(parentId);
    if (!children) {
      children = new Set();
      this.#children.set(parentId, children);
    }
    children.add(childId);
  }

  unlinkChild(parentId: number, childId: number): void {
    this.#children.get(parentId)?.delete(childId);
  }

  forgetChildren(categoryId: number): void {
    this.#children.delete(categoryId);
  }
}
