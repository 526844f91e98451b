/**
 * The rate limit as a model-based property (store.ratelimit.*): fast-check
 * generates sequences of bursts, pauses, token and store switches and header
 * reads; after every request the provider must agree with the reference model
 * (bucketModel.ts) on 2xx vs 429 and on X-Rate-Limit-Limit, -Remaining and
 * -Reset. On the twin the clock is virtual and the agreement exact; on live
 * each request's moment is only known to lie between sending and receiving,
 * so the model allows that interval plus LIVE_RATE_TOLERANCE_MS, and takes the
 * provider's level after each answer (other traffic may share the bucket).
 */
import { broken } from '../../src/testing/ruleTest.ts';
import fc from 'fast-check';
import { bucketOfLimit, bucketOfPlan, STORE_CONTRACT, type PlanBucket, type StorePlan } from '../../src/rules/storeContract.ts';
import { ModelBucket, readingOf } from './bucketModel.ts';
import type { BucketObservation, BucketWorld } from './bucketWorld.ts';

export interface BucketModelState {
  /** The plan the model holds the provider to: the twin's is chosen; live, the first answer's Limit says it. */
  plan: PlanBucket | undefined;
  readonly buckets: Map<string, ModelBucket>;
  readonly stores: number;
  readonly tokensPerStore: number;
  store: number;
  token: number;
}

type BucketCommand = fc.AsyncCommand<BucketModelState, BucketWorld>;

/**
 * Compares one answer with the model, exactly (twin) or within the request's interval (live). Kept whole: the checks
 * run in the order the first failure should explain (status, headers present, served or refused, then Reset and
 * Remaining), and all but the first read the one interval [low, high] and the leak hint worked out in the middle.
 */
export function checkAnswer(model: BucketModelState, world: BucketWorld, toleranceMs: number, obs: BucketObservation): void {
  const key = `${model.store}/${model.token}`;
  const where = world.stores > 1 || world.tokensPerStore > 1 ? `store ${model.store + 1}, token ${model.token + 1}` : 'the store';
  if (obs.status !== 200 && obs.status !== 429) {
    broken('store.ratelimit.bucket-429', `GET /products answered ${obs.status} on ${where}; the model expects 200 or 429 (429 only when the bucket is full).`);
  }
  // Live: a higher plan's bucket (field notes) is allowed; the first answer says which, and every later one must agree.
  model.plan ??= (obs.limit === undefined ? undefined : bucketOfLimit(obs.limit)) ?? bucketOfPlan('standard');
  const plan = model.plan;
  const fullMs = plan.bucketSize * plan.msPerLeak;
  if (obs.limit !== plan.bucketSize) {
    broken(
      'store.ratelimit.headers',
      `X-Rate-Limit-Limit is ${obs.limit ?? 'missing'} on ${where}, expected ${plan.bucketSize} (the ${plan.plan} plan; the contract's bucket is ${STORE_CONTRACT.bucketSize}) on every answer.`,
    );
  }
  if (obs.remaining === undefined || obs.resetMs === undefined) {
    broken('store.ratelimit.headers', `X-Rate-Limit-${obs.remaining === undefined ? 'Remaining' : 'Reset'} is missing on a ${obs.status} from ${where}.`);
  }
  let bucket = model.buckets.get(key);
  if (!bucket) {
    if (!world.exact) {
      // Live: a bucket shared with the world; its first reading is where the model starts.
      model.buckets.set(key, new ModelBucket(obs.receivedAt, obs.resetMs, obs.receivedAt - obs.sentAt, plan));
      return;
    }
    bucket = new ModelBucket(0, 0, 0, plan);
    model.buckets.set(key, bucket);
  }
  const last = bucket.lastRequestAt;
  const leaked = last !== undefined && obs.sentAt > last && bucket.drainAt(last) > 0 ? obs.sentAt - last : 0;
  const leakHint =
    leaked > 0
      ? ` The bucket had leaked for ${leaked} ms since its last request, so its leak rate (store.ratelimit.leak-rate, ${plan.leakPerSecond}/s) may be what differs.`
      : '';
  // The provider decided somewhere between sending and receiving: the model's level then lies in [low, high].
  const high = bucket.drainAt(obs.sentAt);
  const low = Math.max(0, bucket.drainAt(obs.receivedAt) - bucket.uncertaintyMs);
  const tol = world.exact ? 0 : toleranceMs;
  const state = `${where} at ${obs.sentAt} ms, when the model's bucket holds ${fmtRequests(high, plan)}${high === low ? '' : `-${fmtRequests(low, plan)}`} of ${plan.bucketSize} requests`;
  const mustFit = high + plan.msPerLeak <= fullMs - tol;
  const mustRefuse = low + plan.msPerLeak > fullMs + tol;
  if (obs.status === 429 && mustFit) broken('store.ratelimit.bucket-429', `answered 429 on ${state}: the request fits, so it must be served.${leakHint}`);
  if (obs.status === 200 && mustRefuse)
    broken('store.ratelimit.bucket-429', `answered 200 on ${state}: the bucket is full, so it must be refused with 429.${leakHint}`);
  const added = obs.status === 200 ? plan.msPerLeak : 0;
  const resetLow = Math.max(0, low + added - tol);
  const resetHigh = high + added + tol;
  const remainingHigh = readingOf(resetLow, plan).remaining;
  const remainingLow = readingOf(resetHigh, plan).remaining;
  const resetOk = obs.resetMs >= resetLow - 1e-9 && obs.resetMs <= Math.ceil(resetHigh);
  const remainingOk = obs.remaining >= remainingLow && obs.remaining <= remainingHigh;
  const range = (a: number, b: number) => (a === b ? `${a}` : `${a}..${b}`);
  const requests = plan.bucketSize - obs.remaining;
  const implied = obs.resetMs > 0 ? Math.round((requests / obs.resetMs) * 1000 * 100) / 100 : plan.leakPerSecond;
  if (!resetOk && remainingOk && implied !== plan.leakPerSecond) {
    // The level in requests agrees, the time it takes to drain does not: the leak rate differs.
    broken(
      'store.ratelimit.leak-rate',
      `X-Rate-Limit-Reset is ${obs.resetMs} ms on ${state}, while Remaining (${obs.remaining}) agrees with the model: about ${requests} requests draining in ${obs.resetMs} ms is ${implied} per second, not ${plan.leakPerSecond} (the model says ${range(Math.floor(resetLow), Math.ceil(resetHigh))} ms).`,
    );
  }
  if (!resetOk) {
    broken(
      'store.ratelimit.reset-ms',
      `X-Rate-Limit-Reset is ${obs.resetMs} ms on ${state}; the model says ${range(Math.floor(resetLow), Math.ceil(resetHigh))} ms until empty after this ${obs.status}.${leakHint}`,
    );
  }
  if (!remainingOk) {
    broken(
      'store.ratelimit.headers',
      `X-Rate-Limit-Remaining is ${obs.remaining} on ${state}; the model says ${range(remainingLow, remainingHigh)} after this ${obs.status}.${leakHint}`,
    );
  }
  if (world.exact) bucket.request(obs.sentAt);
  else bucket.resync(obs.receivedAt, obs.resetMs, obs.receivedAt - obs.sentAt);
  bucket.lastRequestAt = obs.sentAt;
}

function fmtRequests(drainMs: number, plan: PlanBucket): string {
  return String(Math.round((drainMs / plan.msPerLeak) * 100) / 100);
}

/** Sends `n` requests back to back on the current store and token. */
class Burst implements BucketCommand {
  readonly n: number;
  readonly #toleranceMs: number;
  constructor(n: number, toleranceMs: number) {
    this.n = n;
    this.#toleranceMs = toleranceMs;
  }
  check(): boolean {
    return true;
  }
  async run(model: BucketModelState, world: BucketWorld): Promise<void> {
    for (let i = 0; i < this.n; i++) {
      if (world.budget && !world.budget.take(1)) return;
      checkAnswer(model, world, this.#toleranceMs, await world.send(model.store, model.token));
    }
  }
  toString(): string {
    return `Burst(${this.n})`;
  }
}

/** One request, for its headers. */
class ReadHeaders extends Burst {
  constructor(toleranceMs: number) {
    super(1, toleranceMs);
  }
  override toString(): string {
    return 'ReadHeaders';
  }
}

/** Lets time pass: virtual on the twin, real on live. */
class Wait implements BucketCommand {
  readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
  }
  check(): boolean {
    return true;
  }
  async run(_model: BucketModelState, world: BucketWorld): Promise<void> {
    if (world.budget?.stoppedEarly) return;
    await world.wait(this.ms);
  }
  toString(): string {
    return `Wait(${this.ms}ms)`;
  }
}

class SwitchToken implements BucketCommand {
  readonly token: number;
  constructor(token: number) {
    this.token = token;
  }
  check(model: Readonly<BucketModelState>): boolean {
    return this.token < model.tokensPerStore;
  }
  async run(model: BucketModelState): Promise<void> {
    model.token = this.token;
  }
  toString(): string {
    return `SwitchToken(${this.token + 1})`;
  }
}

class SwitchStore implements BucketCommand {
  readonly store: number;
  constructor(store: number) {
    this.store = store;
  }
  check(model: Readonly<BucketModelState>): boolean {
    return this.store < model.stores;
  }
  async run(model: BucketModelState): Promise<void> {
    model.store = this.store;
  }
  toString(): string {
    return `SwitchStore(${this.store + 1})`;
  }
}

export interface BucketPropertyOptions {
  /** Opens the world of one case (fresh twin stores, or the live store). */
  readonly open: () => Promise<BucketWorld>;
  /** The twin's plan, which the model holds it to; live leaves it out and reads it from the first answer. */
  readonly plan?: StorePlan | undefined;
  /** Whether store and token switches mean anything (the twin has two of each). */
  readonly switches: boolean;
  /** Longest pause: virtual on the twin, so long; real on live, so short. */
  readonly maxWaitMs: number;
  readonly maxCommands: number;
  readonly toleranceMs: number;
  /** FC_REPLAY_PATH: replays the commands of a printed counterexample (with FC_SEED and FC_PATH). */
  readonly replayPath?: string | undefined;
}

/** What fast-check draws commands from: sized by the plan, so bursts and pauses land on the bucket's edges. */
function commandArbitraries(options: BucketPropertyOptions, plan: PlanBucket): fc.Arbitrary<BucketCommand>[] {
  const tol = options.toleranceMs;
  const size = plan.bucketSize;
  const waits = Math.min(options.maxWaitMs, size * plan.msPerLeak);
  const arbitraries: fc.Arbitrary<BucketCommand>[] = [
    // Bursts around the capacity find the boundary; small ones walk the level.
    fc.oneof(fc.integer({ min: 1, max: size + 5 }), fc.constantFrom(size - 1, size, size + 1)).map((n) => new Burst(n, tol)),
    fc.constant(new ReadHeaders(tol)),
    // Pauses around one leak, and long enough to empty a full bucket.
    fc
      .oneof(fc.integer({ min: 0, max: options.maxWaitMs }), fc.constantFrom(plan.msPerLeak - 1, plan.msPerLeak, plan.msPerLeak + 1, waits))
      .map((ms) => new Wait(ms)),
  ];
  if (options.switches) {
    arbitraries.push(
      fc.nat(1).map((t) => new SwitchToken(t)),
      fc.nat(1).map((s) => new SwitchStore(s)),
    );
  }
  return arbitraries;
}

/** The property: any sequence of commands keeps provider and model in agreement. */
export function bucketModelProperty(options: BucketPropertyOptions): fc.IAsyncProperty<[Iterable<BucketCommand>]> {
  const tol = options.toleranceMs;
  const plan = bucketOfPlan(options.plan ?? 'standard');
  return fc.asyncProperty(
    fc.commands(commandArbitraries(options, plan), { maxCommands: options.maxCommands, ...(options.replayPath ? { replayPath: options.replayPath } : {}) }),
    async (commands) => {
      const world = await options.open();
      try {
        const model: BucketModelState = {
          plan: options.plan ? plan : undefined,
          buckets: new Map(),
          stores: world.stores,
          tokensPerStore: world.tokensPerStore,
          store: 0,
          token: 0,
        };
        // Live: the shared bucket's level is unknown until read, and fast-check may
        // generate a case of only pauses; one reading first means every case probes it.
        if (!world.exact) await new ReadHeaders(tol).run(model, world);
        await fc.asyncModelRun(() => ({ model, real: world }), commands);
      } finally {
        await world.close();
      }
    },
  );
}
