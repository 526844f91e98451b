import type { IncomingMessage, ServerResponse } from 'node:http';
import { VirtualClock } from '../../clock/Clock.ts';
import { isStorePlan, STORE_CONTRACT, STORE_PLANS } from '../../rules/storeContract.ts';
import { declaresBody, isJsonObject, MAX_BODY_BYTES, parseJson, readBody } from '../serving/requestBody.ts';
import type { RequestTarget } from '../serving/requestTarget.ts';
import { jsonResponse, writeResponse, type TwinResponse } from './responses.ts';
import { Router, type RouteDefinition } from './router.ts';
import { SEEDED_STORES, STORE_PRESETS, type StoreBlueprint, type StorePresetName } from './seed.ts';
import { FAULT_STATUSES, type FaultStatus, type StoreState } from './storeState.ts';
import { LATEST_TIMESTAMP_MS } from './timestamps.ts';
import type { CreatedStoreOptions, TwinState } from './twinState.ts';
import { dropRenderedAroundWrites } from '../serving/renderCache.ts';
import { ControlError, type ControlContext } from './controlRequest.ts';
import { installControlRoutes } from './install/installControl.ts';

/** Path prefix of the control API: outside /v1, so no Store API path can reach it. */
export const CONTROL_PREFIX = '__twin';

const MAX_PRODUCTS = 20_000;
/** Record ids are the store id times a million plus a count (storeState.ts): this keeps them safe integers. */
const MAX_STORE_ID = 9_000_000;
const MAX_FAULT_COUNT = 1_000;
const MAX_LANGUAGES = 10;
const LANGUAGE_CODE = /^[a-z]{2}$/;

export interface ControlDeps {
  readonly twin: TwinState;
  readonly origin: string;
  readonly reportInternalError: (error: unknown, request: string) => void;
}

function storeOr404(twin: TwinState, rawId: string | undefined): StoreState {
  const store = twin.find(rawId);
  if (!store) {
    throw new ControlError(404, `twin: store ${rawId ?? ''} does not exist; GET /__twin/stores lists the stores, POST /__twin/stores creates one`);
  }
  return store;
}

function baseUrlOf(origin: string, store: StoreState): string {
  return `${origin}/${STORE_CONTRACT.version}/${store.id}`;
}

function describeStore(origin: string, store: StoreState): Record<string, unknown> {
  return {
    storeId: store.id,
    controlId: store.controlId,
    token: store.tokens[0],
    tokens: [...store.tokens],
    appSecret: store.appSecret,
    baseUrl: baseUrlOf(origin, store),
    languages: [...store.languages],
    mainLanguage: store.mainLanguage,
    clock: store.clockMode,
    now: store.clock.now(),
    state: store.access,
    seeded: store.seeded,
    metered: store.metered,
    plan: store.plan,
    products: store.products.size,
    categories: store.categories.size,
  };
}

function clockReading(store: StoreState): { now: number; iso: string } {
  const now = store.clock.now();
  return { now, iso: new Date(now).toISOString() };
}

/**
 * POST /__twin/stores body: every field optional, each checked with a message naming it. Kept whole: the checks run
 * in field order, so the first bad field's message wins, and each default reads the one before (mainLanguage from languages, both from the preset).
 */
function readStoreRequest(body: Readonly<Record<string, unknown>>): { blueprint: StoreBlueprint; options: CreatedStoreOptions } {
  // A pact's literal store id: the store is built under it, as the seeded store of that id is unless the body says otherwise.
  const storeId = body['storeId'];
  if (storeId !== undefined && (typeof storeId !== 'number' || !Number.isInteger(storeId) || storeId < 1 || storeId > MAX_STORE_ID)) {
    throw new ControlError(400, `twin: storeId must be a whole number from 1 to ${MAX_STORE_ID}, e.g. {"storeId":100001}; omit it for a new id`);
  }
  // Built from the seeded store's preset, so a copy under its id holds the same records under the same ids.
  const preset = body['preset'] ?? SEEDED_STORES.find((seeded) => seeded.id === storeId)?.preset ?? 'multi-language';
  if (preset !== 'multi-language' && preset !== 'single-language') {
    throw new ControlError(400, 'twin: preset must be "multi-language" or "single-language"; omit it for "multi-language"');
  }
  const base = STORE_PRESETS[preset as StorePresetName];
  let languages = base.languages;
  if (body['languages'] !== undefined) {
    const value = body['languages'];
    if (
      !Array.isArray(value) ||
      value.length === 0 ||
      value.length > MAX_LANGUAGES ||
      !value.every((code) => typeof code === 'string' && LANGUAGE_CODE.test(code)) ||
      new Set(value).size !== value.length
    ) {
      throw new ControlError(400, `twin: languages must be 1 to ${MAX_LANGUAGES} distinct two-letter lower-case codes, e.g. ["es","pt"]`);
    }
    languages = value as string[];
  }
  let mainLanguage = languages.includes(base.mainLanguage) ? base.mainLanguage : (languages[0] ?? base.mainLanguage);
  if (body['mainLanguage'] !== undefined) {
    const value = body['mainLanguage'];
    if (typeof value !== 'string' || !languages.includes(value)) {
      throw new ControlError(400, `twin: mainLanguage must be one of the store's languages (${languages.join(', ')}); omit it to use ${mainLanguage}`);
    }
    mainLanguage = value;
  }
  let products = base.products;
  if (body['products'] !== undefined) {
    const value = body['products'];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_PRODUCTS) {
      throw new ControlError(400, `twin: products must be a whole number from 0 to ${MAX_PRODUCTS}; omit it for the preset's ${base.products}`);
    }
    products = value;
  }
  let categoryTree = base.categoryTree;
  if (body['categoryTree'] !== undefined) {
    const value = body['categoryTree'];
    if (value !== 'three-level' && value !== 'two-level' && value !== 'flat') {
      throw new ControlError(400, 'twin: categoryTree must be "three-level", "two-level" or "flat" (top-level categories only); omit it for the preset\'s');
    }
    categoryTree = value;
  }
  // Real unless asked: an outside client's bucket must drain as time passes. The harness's own tests ask for
  // "virtual" (StoreTwinControl), so they move time themselves and never sleep.
  const clock = body['clock'] ?? 'real';
  if (clock !== 'virtual' && clock !== 'real') {
    throw new ControlError(400, 'twin: clock must be "virtual" or "real"; omit it for "real"');
  }
  const metered = body['metered'] ?? true;
  if (typeof metered !== 'boolean') {
    throw new ControlError(400, 'twin: metered must be true or false; omit it for true (the leaky bucket refuses with 429); false never fills the bucket');
  }
  const plan = body['plan'] ?? 'standard';
  if (!isStorePlan(plan)) {
    throw new ControlError(
      400,
      `twin: plan must be one of ${Object.keys(STORE_PLANS).join(', ')} (plus multiplies the bucket by ${STORE_PLANS.plus}); omit it for standard`,
    );
  }
  return {
    blueprint: { ...base, languages, mainLanguage, products, categoryTree },
    options: { clockMode: clock, metered, plan, ...(typeof storeId === 'number' ? { storeId } : {}) },
  };
}

function readFault(body: Readonly<Record<string, unknown>>): { status: FaultStatus; count: number; retryAfterMs: number | undefined } {
  const status = body['status'];
  if (typeof status !== 'number' || !(FAULT_STATUSES as readonly number[]).includes(status)) {
    throw new ControlError(400, `twin: status must be one of ${FAULT_STATUSES.join(', ')}, e.g. {"status":503,"count":2}`);
  }
  const count = body['count'];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_FAULT_COUNT) {
    throw new ControlError(400, `twin: count must be a whole number from 1 to ${MAX_FAULT_COUNT}, e.g. {"status":503,"count":2}`);
  }
  const retryAfterMs = body['retryAfterMs'];
  if (retryAfterMs !== undefined && (typeof retryAfterMs !== 'number' || !Number.isInteger(retryAfterMs) || retryAfterMs < 0 || retryAfterMs > 86_400_000)) {
    throw new ControlError(400, 'twin: retryAfterMs must be a whole number of milliseconds from 0 to 86400000, or omitted');
  }
  return { status: status as FaultStatus, count, retryAfterMs };
}

const controlRoutes: readonly RouteDefinition<ControlContext>[] = [
  { path: 'health', methods: { GET: () => jsonResponse(200, { ok: true }) } },
  {
    path: 'reset',
    methods: {
      POST: ({ twin, origin }) => {
        twin.reset();
        return jsonResponse(200, { ok: true, stores: twin.list().map((store) => describeStore(origin, store)) });
      },
    },
  },
  {
    path: 'stores',
    methods: {
      GET: ({ twin, origin }) =>
        jsonResponse(
          200,
          twin.list().map((store) => describeStore(origin, store)),
        ),
      POST: ({ twin, body, origin }) => {
        const { blueprint, options } = readStoreRequest(body);
        const store = twin.create(blueprint, options);
        const { storeId, controlId, token, appSecret, baseUrl, languages, mainLanguage, clock, metered, plan, now } = describeStore(origin, store);
        return jsonResponse(201, { storeId, controlId, token, appSecret, baseUrl, languages, mainLanguage, clock, metered, plan, now });
      },
    },
  },
  {
    path: 'stores/:id',
    methods: {
      GET: ({ twin, origin }, params) => jsonResponse(200, describeStore(origin, storeOr404(twin, params['id']))),
      DELETE: ({ twin }, params) => {
        twin.delete(storeOr404(twin, params['id']).controlId);
        return { status: 204 };
      },
    },
  },
  {
    path: 'stores/:id/clock',
    methods: {
      GET: ({ twin }, params) => {
        const store = storeOr404(twin, params['id']);
        return jsonResponse(200, { ...clockReading(store), mode: store.clockMode });
      },
      POST: async ({ twin, body }, params) => {
        const store = storeOr404(twin, params['id']);
        if (!(store.clock instanceof VirtualClock)) {
          throw new ControlError(400, `twin: store ${store.id} runs on the real clock; create a store with {"clock":"virtual"} to move time`);
        }
        const advanceMs = body['advanceMs'];
        const room = LATEST_TIMESTAMP_MS - store.clock.now();
        if (typeof advanceMs !== 'number' || !Number.isInteger(advanceMs) || advanceMs < 0 || advanceMs > room) {
          throw new ControlError(
            400,
            'twin: advanceMs must be a whole, non-negative number of milliseconds (and keep the clock before year 10000), e.g. {"advanceMs":1000}',
          );
        }
        store.clock.advance(advanceMs);
        // store.webhooks.retry-schedule: the deliveries the clock passed over are attempted before the answer.
        await store.outbox.runDue();
        return jsonResponse(200, clockReading(store));
      },
    },
  },
  {
    path: 'stores/:id/suspend',
    methods: { POST: ({ twin }, params) => jsonResponse(200, { state: storeOr404(twin, params['id']).suspend() }) },
  },
  {
    path: 'stores/:id/resume',
    methods: { POST: ({ twin }, params) => jsonResponse(200, { state: storeOr404(twin, params['id']).resume() }) },
  },
  {
    path: 'stores/:id/tokens',
    methods: { POST: ({ twin }, params) => jsonResponse(201, { token: storeOr404(twin, params['id']).addToken() }) },
  },
  {
    path: 'stores/:id/faults',
    methods: {
      GET: ({ twin }, params) =>
        jsonResponse(
          200,
          storeOr404(twin, params['id']).faults.map((fault) => ({ ...fault })),
        ),
      POST: ({ twin, body }, params) => {
        const store = storeOr404(twin, params['id']);
        const fault = readFault(body);
        store.addFault({ status: fault.status, remaining: fault.count, retryAfterMs: fault.retryAfterMs });
        return jsonResponse(201, { ...fault, pending: store.faults.map((pending) => ({ ...pending })) });
      },
      DELETE: ({ twin }, params) => {
        storeOr404(twin, params['id']).clearFaults();
        return { status: 204 };
      },
    },
  },
  // Every delivery with every attempt (webhookOutbox.ts DeliveryRecord): attempt number, time, status or error, next attempt.
  {
    path: 'stores/:id/deliveries',
    methods: { GET: ({ twin }, params) => jsonResponse(200, storeOr404(twin, params['id']).outbox.list()) },
  },
  {
    path: 'stores/:id/deliveries/flush',
    methods: {
      POST: async ({ twin }, params) => {
        const store = storeOr404(twin, params['id']);
        await store.outbox.runDue();
        return jsonResponse(200, store.outbox.list());
      },
    },
  },
];

const controlRouter = new Router<ControlContext>([...controlRoutes, ...installControlRoutes]);

/** Whether a request target is under /__twin. */
export function isControlTarget(target: RequestTarget): boolean {
  return target.segments[0] === CONTROL_PREFIX;
}

/** The control API: no auth, JSON in and out, `{"error": ...}` on bad input. */
export async function handleControlRequest(req: IncomingMessage, res: ServerResponse, target: RequestTarget, deps: ControlDeps): Promise<void> {
  let response: TwinResponse;
  try {
    const match = controlRouter.match(req.method ?? 'GET', target.segments.slice(1));
    if (match.kind === 'not-found') {
      throw new ControlError(
        404,
        `twin: no control endpoint at ${(req.url ?? '').split('?')[0]}; the endpoints are /__twin/health, /__twin/reset, /__twin/stores[/{id}[/clock|suspend|resume|tokens|faults|deliveries[/flush]]] and /__twin/apps[/{id}[/approve|uninstall]]`,
      );
    }
    if (match.kind === 'method-not-allowed') {
      response = jsonResponse(405, { error: `twin: this control endpoint takes ${match.allow}` }, { Allow: match.allow });
    } else {
      const body = await readControlBody(req);
      // A reset or a seed changes what stores hold: no rendered record outlives a control write.
      const dropAll = (): void => deps.twin.list().forEach((store) => store.rendered.invalidate());
      response = await dropRenderedAroundWrites(req.method, dropAll, () => match.handler({ twin: deps.twin, body, origin: deps.origin }, match.params));
    }
  } catch (error) {
    if (error instanceof ControlError) response = jsonResponse(error.status, { error: error.message });
    else {
      deps.reportInternalError(error, `${req.method} ${req.url}`);
      response = jsonResponse(500, { error: 'twin: internal error in the control API (logged)' });
    }
  }
  writeResponse(res, req.method, response);
}

async function readControlBody(req: IncomingMessage): Promise<Readonly<Record<string, unknown>>> {
  if (!declaresBody(req.headers)) return {};
  const read = await readBody(req);
  if (read.kind === 'aborted') throw new ControlError(400, 'twin: the request body ended early');
  if (read.kind === 'too-large') throw new ControlError(413, `twin: control bodies are at most ${MAX_BODY_BYTES} bytes`);
  if (read.bytes.length === 0) return {};
  const parsed = parseJson(read.bytes);
  if (!parsed.ok) throw new ControlError(400, 'twin: the body is not valid JSON; send a JSON object, e.g. {"products": 10}');
  if (!isJsonObject(parsed.value)) throw new ControlError(400, 'twin: the body must be a JSON object, e.g. {"products": 10}');
  return parsed.value;
}
