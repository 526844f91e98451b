import type { StorePlan } from '../../rules/storeContract.ts';
import { VirtualClock, systemClock, type Clock } from '../../clock/Clock.ts';
import {
  FIRST_CREATED_STORE_ID,
  SEED_STORE_CREATED_MS,
  SEEDED_STORES,
  VIRTUAL_CLOCK_START_MS,
  appSecretOf,
  seedCatalog,
  storeName,
  tokenOf,
  type StoreBlueprint,
} from './seed.ts';
import { parseNumericId } from '../serving/requestTarget.ts';
import type { StoreTwinBreak } from './twinBreaks.ts';
import { StoreState, type ClockMode } from './storeState.ts';
import { WebhookOutbox } from './webhookOutbox.ts';
import { AppRegistry } from './install/apps.ts';
import { Installs } from './install/installs.ts';

export interface TwinStateOptions {
  /** Clock of the seeded stores. */
  readonly clockMode: ClockMode;
  /** Aborted when the twin closes: stops deliveries in flight. */
  readonly deliverySignal: AbortSignal;
  /** A deliberate break every store of this twin has (twinBreaks.ts); tests only. */
  readonly twinBreak?: StoreTwinBreak | undefined;
  /** The seeded stores' plan: standard unless said (the gate's recording uses plus, so it does not wait on the bucket). */
  readonly seededPlan?: StorePlan | undefined;
}

/** How a store created through the control API runs. */
export interface CreatedStoreOptions {
  readonly clockMode: ClockMode;
  /** False: the store's buckets stay empty (StoreProfile.metered). */
  readonly metered: boolean;
  /** The bucket's plan (StoreProfile.plan); standard when omitted. */
  readonly plan?: StorePlan | undefined;
  /**
   * The id its paths show: a new one when omitted. Given (a pact's literal store id), the store is built under
   * that id, its records numbered from it as the seeded store of that id has them, and, where another store
   * already answers to the id, it is served only to its own tokens: an isolated copy, its own controlId for the control API.
   */
  readonly storeId?: number | undefined;
}

/** Every store of one running twin: the seeded ones and those created through the control API. */
export class TwinState {
  readonly clockMode: ClockMode;
  readonly #deliverySignal: AbortSignal;
  readonly #twinBreak: StoreTwinBreak | undefined;
  readonly #seededPlan: StorePlan;
  /** By controlId, the control API's handle (StoreProfile.controlId). */
  readonly #stores = new Map<number, StoreState>();
  /** The install flow (install/): registered apps, codes, the token each app holds on each store. */
  readonly apps = new AppRegistry();
  readonly installs = new Installs();
  // Not reset: a store id (and so its token) is never reused within one run.
  #nextCreatedId = FIRST_CREATED_STORE_ID;

  constructor(options: TwinStateOptions) {
    this.clockMode = options.clockMode;
    this.#deliverySignal = options.deliverySignal;
    this.#twinBreak = options.twinBreak;
    this.#seededPlan = options.seededPlan ?? 'standard';
    this.reset();
  }

  /** Seeded stores back to their seed, created stores gone, the seeded app alone and installed nowhere. */
  reset(): void {
    this.#stores.clear();
    this.apps.reset();
    this.installs.reset();
    for (const seeded of SEEDED_STORES) {
      const ids = { id: seeded.id, controlId: seeded.id };
      this.#stores.set(seeded.id, this.#build(ids, seeded, { clockMode: this.clockMode, metered: true, plan: this.#seededPlan }, true));
    }
  }

  /** The store a control handle names (its controlId: the store's id, but for an isolated copy under another's id). */
  find(segment: string | undefined): StoreState | undefined {
    const id = parseNumericId(segment);
    return id === undefined ? undefined : this.#stores.get(id);
  }

  /**
   * The store an API path's id names for this token: of the stores under that id, the one the token opens; else the
   * store whose controlId is the id (which then refuses the token, store.auth.token-scoped-to-store); else any under it.
   */
  serving(segment: string | undefined, token: string | undefined): StoreState | undefined {
    const id = parseNumericId(segment);
    if (id === undefined) return undefined;
    let first: StoreState | undefined;
    for (const store of this.#stores.values()) {
      if (store.id !== id) continue;
      if (token !== undefined && store.hasToken(token)) return store;
      first ??= store;
    }
    return this.#stores.get(id) ?? first;
  }

  list(): StoreState[] {
    return [...this.#stores.values()];
  }

  create(blueprint: StoreBlueprint, options: CreatedStoreOptions): StoreState {
    const controlId = this.#nextCreatedId;
    this.#nextCreatedId += 1;
    const store = this.#build({ id: options.storeId ?? controlId, controlId }, blueprint, options, false);
    this.#stores.set(controlId, store);
    return store;
  }

  delete(id: number): boolean {
    return this.#stores.delete(id);
  }

  #build(
    { id, controlId }: { id: number; controlId: number },
    blueprint: StoreBlueprint,
    { clockMode, metered, plan = 'standard' }: CreatedStoreOptions,
    seeded: boolean,
  ): StoreState {
    const clock: Clock = clockMode === 'virtual' ? new VirtualClock(VIRTUAL_CLOCK_START_MS) : systemClock;
    const store = new StoreState(
      {
        id,
        controlId,
        name: storeName(id, blueprint.languages),
        languages: [...blueprint.languages],
        mainLanguage: blueprint.mainLanguage,
        // Unique in the twin: a store under another's id has a token of its own.
        token: id === controlId ? tokenOf(id) : `${tokenOf(id)}-copy-${controlId}`,
        appSecret: appSecretOf(id),
        clockMode,
        clock,
        seeded,
        createdAt: SEED_STORE_CREATED_MS,
        metered,
        plan,
        twinBreak: this.#twinBreak,
      },
      new WebhookOutbox({ signal: this.#deliverySignal, clock }),
    );
    seedCatalog(store, blueprint);
    return store;
  }
}
