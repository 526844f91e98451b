import type { Clock } from '../../clock/Clock.ts';
import { msPerLeakOfLimit, requestsFittingAsResetSays, STORE_CONTRACT } from '../../rules/storeContract.ts';
import type { RateHeaders } from './types.ts';
import { learnedInThisRun, shareLesson } from './pacerLessons.ts';

/** A place in the bucket held by one request from the moment it leaves until its answer is read. */
export interface PacerTicket {
  /** Another request was in flight at some point while this one was. */
  overlapped: boolean;
  /**
   * Held until the model had room for it (acquire), the model then bounded by the provider's own rate headers, with
   * no request of another pacer of the store since they were read: a 429 to it is one those headers did not predict.
   */
  predicted?: boolean;
}

/**
 * What this process knows of one store's bucket, shared by every pacer of that store (its base URL) on the same clock
 * (a model of a bucket runs in one clock's time; the clients of a store share the provider's clock): how many
 * requests its pacers have sent (so a pacer knows whether another sent some since it last read the headers), and,
 * once a 429 showed the store's rate headers lie, the pacer that paces every client of the store from then on.
 */
interface StoreLedger {
  holds: number;
  learned: Pacer | undefined;
}

const ledgers = new WeakMap<Clock, Map<string, StoreLedger>>();

/** Whom a pacer tells, once per store and process, that it stopped reading the store's rate headers. */
export type PacerNotice = (line: string) => void;

/**
 * The client's model of the provider's leaky bucket (store.client.paces-to-bucket):
 * capacity 40, leaking 2 requests per second (store.ratelimit.leak-rate), or the
 * larger bucket of a higher plan once X-Rate-Limit-Limit shows one (field notes).
 *
 * The level is kept in milliseconds of draining, the unit of X-Rate-Limit-Reset,
 * so whole-millisecond clocks give exact, integer waits. Before a request the
 * pacer waits exactly until the modelled level plus the requests in flight
 * leaves room for one more, and not a millisecond longer.
 *
 * The model follows the provider's answers rather than counting on its own:
 * other programs may share the bucket, and the provider's count is the truth.
 * Until the provider shows its headers lie: a 429 whose rate headers say a
 * request still fits. From then on the headers are not read, and the pacer
 * counts on its own against the contract's bucket (40, 2 per second), a 429
 * showing it full: so a provider whose headers disagree with the bucket it
 * enforces is caught by the rate-limit rule (store.ratelimit.bucket-429), and
 * the client does not run every later request into 429 for it.
 *
 * A 429 that says the bucket is full lies as well when the headers before it left
 * room: a provider whose X-Rate-Limit-Limit says 400 while it enforces 40 says
 * Remaining 0 on its 429s, and a Reset that fits a full bucket of 400. So a 429 to
 * a request the pacer held until the headers showed room for it, with no request
 * of another client of the store since those headers, counts as the same lie
 * (PacerTicket.predicted). A pacer made for a store (`store`, its base URL) shares
 * the lesson with every pacer of that store on its clock in this process: from the 429 on,
 * the one that met it paces them all, on its count by the contract's bucket, so a
 * client made later does not meet the same 429 first; the pacer says so once
 * (`notice`, by default one line on stderr naming the base URL). A run's other
 * worker processes learn it too (pacerLessons.ts): said once in the run.
 */
export class Pacer {
  readonly #clock: Clock;
  readonly #store: string | undefined;
  readonly #notice: PacerNotice;
  /** The store's ledger, or this pacer's own when it was made for no store. */
  readonly #ledger: StoreLedger;
  /** Requests this pacer has sent: the ledger's holds less these are other pacers'. */
  #ownHolds = 0;
  /** Other pacers' requests when an answer's rate headers last set the level; undefined until one did. */
  #othersAtSync: number | undefined;
  #capacity: number = STORE_CONTRACT.bucketSize;
  /** Milliseconds one request takes to leak on the plan whose bucket the provider reports; follows #capacity. */
  #msPerLeak: number = msPerLeakOfLimit(STORE_CONTRACT.bucketSize);
  /** Milliseconds the modelled bucket needs to drain, as of #at. */
  #drainMs = 0;
  #at: number;
  readonly #inFlight = new Set<PacerTicket>();
  /** Whether the model bounds the provider's level: an answer's rate headers showed it, or a wait for room bounded it. */
  #bounded = false;
  /** A 429 said a request still fitted: the rate headers are not read any more (see the class comment). */
  #headersLie = false;
  /** Waiters take turns, so two never both claim the same free place. */
  #queue: Promise<unknown> = Promise.resolve();
  #released = Promise.withResolvers<void>();

  /**
   * `store`: the base URL of the store whose bucket this pacer models; pacers of the same store in this process share
   * what a 429 shows of it. Without it the pacer learns for itself alone.
   */
  constructor(clock: Clock, options: { store?: string; notice?: PacerNotice } = {}) {
    this.#clock = clock;
    this.#at = clock.now();
    this.#store = options.store;
    this.#notice = options.notice ?? ((line) => void process.stderr.write(`${line}\n`));
    this.#ledger = options.store === undefined ? { holds: 0, learned: undefined } : ledgerOf(clock, options.store);
    // Learned by another worker of this run: pace by the contract's bucket from the first request, without saying it again.
    if (options.store !== undefined && this.#ledger.learned === undefined && learnedInThisRun(options.store)) {
      this.#headersLie = true;
      this.#ledger.learned = this;
    }
  }

  /** Requests in the modelled bucket now, in flight not included (fractional while leaking). */
  level(): number {
    const learned = this.#learned();
    if (learned) return learned.level();
    return this.#drainAt(this.#clock.now()) / this.#msPerLeak;
  }

  get inFlight(): number {
    return this.#learned()?.inFlight ?? this.#inFlight.size;
  }

  get capacity(): number {
    return this.#learned()?.capacity ?? this.#capacity;
  }

  /** Whether a 429 showed the rate headers lie (to this pacer or another of its store), so it counts on its own by the contract's bucket. */
  get distrustsHeaders(): boolean {
    return this.#learned()?.distrustsHeaders ?? this.#headersLie;
  }

  /** Milliseconds until one more request fits; 0 when it fits now. */
  waitNeeded(): number {
    const learned = this.#learned();
    if (learned) return learned.waitNeeded();
    const overflow = this.#drainAt(this.#clock.now()) + (this.#inFlight.size + 1 - this.#capacity) * this.#msPerLeak;
    return Math.max(0, Math.ceil(overflow));
  }

  /**
   * Waits (on the clock) until `requests` more fit, holding no place: for
   * requests another program sends on this token (Pact's Verifier), which this
   * pacer cannot hold back itself. Before any answer has shown the level, the
   * bucket may be full: it waits for `requests` to leak out rather than send a
   * request to look (whose answer would depend on timing, and so would a
   * recording of it). `whenUnknown: 'go'`: for requests of this pacer's own
   * client, which waits out a 429 and sends again, it does not wait then: its
   * first answer shows the level.
   */
  async waitForRoom(requests: number, whenUnknown: 'wait' | 'go' = 'wait'): Promise<void> {
    const learned = this.#learned();
    if (learned) return learned.waitForRoom(requests, whenUnknown);
    if (!this.#bounded && whenUnknown === 'go') return;
    if (this.#bounded) {
      const overflow = this.#drainAt(this.#clock.now()) + (this.#inFlight.size + requests - this.#capacity) * this.#msPerLeak;
      if (overflow > 0) await this.#clock.sleep(Math.ceil(overflow));
      return;
    }
    await this.#clock.sleep(requests * this.#msPerLeak);
    // Whatever the level was, `requests` have leaked out since: the model starts from a bucket with just that room,
    // so the next wait follows the model instead of assuming a full bucket again.
    this.#drainMs = Math.max(0, this.#capacity - this.#inFlight.size - requests) * this.#msPerLeak;
    this.#at = this.#clock.now();
    this.#bounded = true;
  }

  /** Waits (on the clock) until one more request fits, then holds its place. */
  acquire(): Promise<PacerTicket> {
    const learned = this.#learned();
    if (learned) return learned.acquire();
    const turn = this.#queue.then(() => this.#waitForRoom());
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /** Holds a place without waiting: an unpaced request still fills the provider's bucket. */
  track(): PacerTicket {
    return this.#learned()?.track() ?? this.#hold(false);
  }

  /**
   * Gives the place back once the answer is in, syncing the model from its rate
   * headers. Without headers (or without an answer) the request is assumed to
   * have been counted. `refused`: the answer was a 429, which shows the bucket
   * full whatever its headers say.
   */
  release(ticket: PacerTicket, rate: RateHeaders | undefined, refused = false): void {
    if (!this.#inFlight.delete(ticket)) {
      // Held from the pacer that learned for the store (or handed to it since): its answer is that pacer's to count.
      this.#learned()?.release(ticket, rate, refused);
      return;
    }
    const now = this.#clock.now();
    const modelled = this.#drainAt(now);
    if (refused && !this.#headersLie && (ticket.predicted === true || claimsRoom(rate, this.#capacity))) this.#learn(rate);
    if (this.#headersLie) {
      // Counted on our own: a 429 shows the bucket full, any other answer adds the request.
      this.#drainMs = refused ? this.#capacity * this.#msPerLeak : Math.min(modelled + this.#msPerLeak, this.#capacity * this.#msPerLeak);
      this.#bounded = true;
      this.#settle(now);
      return;
    }
    if (rate?.limit !== undefined && rate.limit >= 1 && rate.limit !== this.#capacity) {
      this.#capacity = rate.limit;
      this.#msPerLeak = msPerLeakOfLimit(rate.limit);
    }
    const observed = observedDrainMs(rate, this.#capacity);
    if (observed !== undefined) {
      this.#bounded = true;
      this.#othersAtSync = this.#others();
    }
    if (observed === undefined) this.#drainMs = modelled + this.#msPerLeak;
    // Alone on the wire, the answer is the provider's latest count: take it, even when lower.
    // Overlapping answers may arrive out of order: a stale one must not lower the level.
    else this.#drainMs = ticket.overlapped ? Math.max(observed, modelled) : observed;
    this.#settle(now);
  }

  /**
   * A 429 the headers did not predict, or whose own headers say a request fits: from now on this pacer counts by the
   * contract's bucket, and paces every pacer of its store in this process; said once per store.
   */
  #learn(rate: RateHeaders | undefined): void {
    this.#headersLie = true;
    const claimed = this.#capacity;
    this.#capacity = STORE_CONTRACT.bucketSize;
    this.#msPerLeak = msPerLeakOfLimit(STORE_CONTRACT.bucketSize);
    if (this.#ledger.learned) return;
    this.#ledger.learned = this;
    if (this.#store === undefined) return;
    const said = rate?.remaining !== undefined ? `, saying Remaining ${rate.remaining}` : '';
    this.#notice(
      `StoreClient: ${printable(this.#store)} answered 429${said} where its rate headers (a bucket of ${claimed}) left room: ` +
        `every client of it in this run paces by the contract's bucket from now on (${STORE_CONTRACT.bucketSize} requests, ` +
        `leaking ${STORE_CONTRACT.leakPerSecond}/s), its rate headers unread`,
    );
    shareLesson(this.#store);
  }

  /** The pacer that paces this store since a 429 showed its headers lie, when it is another than this one. */
  #learned(): Pacer | undefined {
    const learned = this.#ledger.learned;
    return learned === this ? undefined : learned;
  }

  /** Requests other pacers of the store have sent so far. */
  #others(): number {
    return this.#ledger.holds - this.#ownHolds;
  }

  #settle(now: number): void {
    this.#at = now;
    this.#released.resolve();
    this.#released = Promise.withResolvers<void>();
  }

  async #waitForRoom(): Promise<PacerTicket> {
    for (;;) {
      const wait = this.waitNeeded();
      if (wait === 0) return this.#hold(true);
      if (this.#inFlight.size === 0) {
        await this.#clock.sleep(wait);
      } else {
        // An answer in flight may show the bucket lower than the model assumes: look again then.
        await Promise.race([this.#clock.sleep(wait), this.#released.promise]);
      }
    }
  }

  /** `paced`: held until the model had room (acquire), so a 429 to it may be one the headers did not predict. */
  #hold(paced: boolean): PacerTicket {
    this.#ledger.holds++;
    this.#ownHolds++;
    // Counted on our own, a 429 is no surprise; before any headers, or after another pacer's requests, the model may be behind.
    const predicted = paced && !this.#headersLie && this.#othersAtSync !== undefined && this.#othersAtSync === this.#others();
    const ticket: PacerTicket = { overlapped: this.#inFlight.size > 0, ...(predicted ? { predicted } : {}) };
    for (const other of this.#inFlight) other.overlapped = true;
    this.#inFlight.add(ticket);
    return ticket;
  }

  #drainAt(now: number): number {
    return Math.max(0, this.#drainMs - Math.max(0, now - this.#at));
  }
}

function ledgerOf(clock: Clock, store: string): StoreLedger {
  let stores = ledgers.get(clock);
  if (!stores) ledgers.set(clock, (stores = new Map()));
  let ledger = stores.get(store);
  if (!ledger) stores.set(store, (ledger = { holds: 0, learned: undefined }));
  return ledger;
}

/** A base URL as it may be printed: without user information. */
function printable(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    return url.href.replace(/\/+$/, '');
  } catch {
    return '(a store base URL that does not parse)';
  }
}

/**
 * The provider's level in drain milliseconds, from the rate headers of one answer
 * (store.ratelimit.headers). Limit − Remaining is a whole number of requests,
 * rounded up when the level is fractional; Reset says the same in milliseconds,
 * exactly. Reset is taken when it agrees with Remaining to within one request
 * (so a Reset in seconds, as an old draft had it, is not mistaken for a nearly
 * empty bucket); otherwise Limit − Remaining.
 */
export function observedDrainMs(rate: RateHeaders | undefined, capacity: number): number | undefined {
  if (!rate) return undefined;
  const limit = rate.limit ?? capacity;
  const msPerLeak = msPerLeakOfLimit(limit);
  if (rate.remaining !== undefined) {
    const byRemaining = Math.max(0, limit - rate.remaining) * msPerLeak;
    if (rate.reset !== undefined && Math.abs(rate.reset - byRemaining) <= msPerLeak) return rate.reset;
    return byRemaining;
  }
  return rate.reset;
}

/**
 * Whether the rate headers of a 429 say one more request fits: Remaining above 0, or (without Remaining) a Reset
 * shorter than a bucket with one place taken. A 429 without rate headers claims nothing.
 */
export function claimsRoom(rate: RateHeaders | undefined, capacity: number): boolean {
  if (!rate) return false;
  if (rate.remaining !== undefined) return rate.remaining >= 1;
  if (rate.reset === undefined) return false;
  // Reset may be rounded by a millisecond (as the suites allow it): room claimed even at the longer reading.
  return requestsFittingAsResetSays(rate.limit ?? capacity, rate.reset + 1) >= 1;
}
