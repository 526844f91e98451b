import { VirtualClock, type Clock } from '../../clock/Clock.ts';
import { isLoopbackHost } from './resources/webhooks.ts';
import { DELIVERY_TIMEOUT_MS, deliveryHeaders, isDelivered, postDelivery, RETRY_SCHEDULE_MS, type AttemptOutcome } from './webhookDelivery.ts';

export { SIGNATURE_HEADER, signWebhookBody } from './webhookDelivery.ts';

/**
 * - `pending`: another attempt is due at `nextAttemptAt` (or one is under way).
 * - `delivered`: an attempt was answered 2xx.
 * - `failed`: the schedule ran out (48 h after the event) without a 2xx.
 * - `not-sent`: the URL is not on loopback, where the twin does not call (ASSUMPTIONS.md).
 */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'not-sent';

/** One attempt of a delivery, as the control API lists it. */
export interface DeliveryAttempt {
  /** 1 for the first, counting every slot of the schedule, skipped ones too. */
  readonly attempt: number;
  /** When it was due on the store's clock (ms since the epoch): the twin makes it then, or at once when the clock jumped past it. */
  readonly at: number;
  /** The receiver's HTTP status, when it answered. */
  readonly status: number | null;
  /** Why there is no 2xx: no answer in time, a refused connection, an answer that is not HTTP, a non-2xx status, or a skipped slot. */
  readonly error: string | null;
  readonly durationMs: number | null;
  /** The receiver's answer (headers and the first 2,000 characters of its body), when it answered. */
  readonly answer?: { readonly headers: Readonly<Record<string, string>>; readonly body: string };
  /** True when the slot fell while access was suspended: not called (store.webhooks.not-called-while-suspended). */
  readonly skipped?: true;
}

/** One delivery as the control API shows it (GET /__twin/stores/{id}/deliveries). */
export interface DeliveryRecord {
  readonly id: number;
  readonly event: string;
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  /** When the event happened on the store's clock: the schedule counts from here. */
  readonly eventAt: number;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  /** When the next attempt is due on the store's clock; null once delivered, failed or not sent. */
  nextAttemptAt: number | null;
  /** The last attempt's status and error (the first attempt's view, kept for readers of one attempt). */
  status: number | null;
  error: string | null;
}

export interface OutgoingDelivery {
  readonly event: string;
  readonly url: string;
  readonly body: string;
  readonly secret: string;
}

export interface OutboxOptions {
  /** Aborts deliveries in flight and pending timers when the twin closes. */
  readonly signal: AbortSignal;
  /** The store's clock: the schedule runs on it (a virtual one only moves through the control API). */
  readonly clock: Clock;
  readonly timeoutMs?: number;
  /** When attempts are due, from the event; RETRY_SCHEDULE_MS unless a unit test needs a short one on a real clock. */
  readonly schedule?: readonly number[];
  /** Oldest records are dropped past this, so a long-running twin stays small. */
  readonly maxRecords?: number;
}

/**
 * Sends a store's webhook deliveries on the store's clock and records every attempt. The first attempt leaves when
 * the event happens; a receiver that answers non-2xx, refuses the connection or does not answer in time is tried
 * again on RETRY_SCHEDULE_MS until 48 h after the event (store.webhooks.retry-schedule, store.webhooks.retry-window).
 * On a virtual clock nothing waits: `runDue` makes every attempt the clock has reached, each stamped with its due
 * time; on a real clock a timer does. While the store is suspended a due slot is skipped, not held
 * (store.webhooks.not-called-while-suspended; docs/webhooks.md). A failing receiver never reaches the caller.
 */
export class WebhookOutbox {
  readonly #records: DeliveryRecord[] = [];
  /** The next slot of each pending record's schedule. */
  readonly #slots = new Map<DeliveryRecord, number>();
  readonly #inFlight = new Map<DeliveryRecord, Promise<void>>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #options: OutboxOptions;
  readonly #timeoutMs: number;
  readonly #maxRecords: number;
  readonly #schedule: readonly number[];
  #paused: () => boolean = () => false;
  #lastId = 0;

  constructor(options: OutboxOptions) {
    this.#options = options;
    this.#timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.#maxRecords = options.maxRecords ?? 1_000;
    this.#schedule = options.schedule ?? RETRY_SCHEDULE_MS;
    options.signal.addEventListener('abort', () => {
      for (const timer of this.#timers) clearTimeout(timer);
      this.#timers.clear();
    });
  }

  /** While this holds (the store is suspended), no attempt is made; StoreState sets it. */
  pauseWhile(paused: () => boolean): void {
    this.#paused = paused;
  }

  enqueue(delivery: OutgoingDelivery): void {
    this.#lastId += 1;
    const record: DeliveryRecord = {
      id: this.#lastId,
      event: delivery.event,
      url: delivery.url,
      body: delivery.body,
      headers: deliveryHeaders(delivery.body, delivery.secret),
      eventAt: this.#options.clock.now(),
      state: 'pending',
      attempts: [],
      nextAttemptAt: null,
      status: null,
      error: null,
    };
    this.#records.push(record);
    if (this.#records.length > this.#maxRecords) this.#slots.delete(this.#records.shift()!);
    const url = URL.parse(delivery.url); // validated at registration; checked again so a bad one is recorded, not thrown
    if (url === null || !isLoopbackHost(url.hostname)) {
      record.state = 'not-sent';
      record.error = url === null ? 'the webhook URL cannot be parsed' : 'the twin only calls receivers on 127.0.0.1, localhost or [::1]';
      return;
    }
    this.#slots.set(record, 0);
    record.nextAttemptAt = record.eventAt;
    this.#start(record);
  }

  /**
   * Makes every attempt due by now on the store's clock, one slot after another, until none is due and none is in
   * flight: after a virtual clock jumps 48 h, the whole schedule has run.
   */
  async runDue(): Promise<void> {
    for (;;) {
      const now = this.#options.clock.now();
      for (const record of this.#records) {
        if (record.state === 'pending' && record.nextAttemptAt !== null && record.nextAttemptAt <= now) this.#start(record);
      }
      if (this.#inFlight.size === 0) return;
      await Promise.allSettled([...this.#inFlight.values()]);
    }
  }

  /** Waits for attempts under way and makes those due: what the control API's flush and clock moves call. */
  flush(): Promise<void> {
    return this.runDue();
  }

  /** Copies of the records, oldest first. */
  list(): DeliveryRecord[] {
    return this.#records.map((record) => ({ ...record, attempts: [...record.attempts] }));
  }

  #start(record: DeliveryRecord): void {
    if (this.#inFlight.has(record) || this.#options.signal.aborted) return;
    const attempt = this.#attempt(record).finally(() => this.#inFlight.delete(record));
    this.#inFlight.set(record, attempt);
  }

  async #attempt(record: DeliveryRecord): Promise<void> {
    const slot = this.#slots.get(record);
    const dueAt = record.nextAttemptAt;
    if (slot === undefined || dueAt === null) return;
    if (this.#paused()) {
      this.#settle(record, slot, {
        attempt: slot + 1,
        at: dueAt,
        status: null,
        error: 'not called: access to the store is suspended (store.webhooks.not-called-while-suspended)',
        durationMs: null,
        skipped: true,
      });
      return;
    }
    const outcome = await postDelivery(record.url, record.body, { ...record.headers }, { signal: this.#options.signal, timeoutMs: this.#timeoutMs });
    if (this.#options.signal.aborted) return;
    this.#settle(record, slot, attemptOf(slot, dueAt, outcome));
  }

  /** Records an attempt and moves the delivery on: delivered, the next slot, or given up after the last. */
  #settle(record: DeliveryRecord, slot: number, attempt: DeliveryAttempt): void {
    record.attempts.push(attempt);
    record.status = attempt.status;
    record.error = attempt.error;
    if (attempt.status !== null && attempt.status >= 200 && attempt.status < 300) {
      record.state = 'delivered';
      record.nextAttemptAt = null;
      this.#slots.delete(record);
      return;
    }
    const next = slot + 1;
    const offset = this.#schedule[next];
    if (offset === undefined) {
      record.state = 'failed';
      record.nextAttemptAt = null;
      record.error = `${attempt.error ?? 'no 2xx'}; gave up after ${this.#schedule.length} attempts, at the end of the retry window (store.webhooks.retry-window)`;
      this.#slots.delete(record);
      return;
    }
    this.#slots.set(record, next);
    record.nextAttemptAt = record.eventAt + offset;
    this.#wakeAt(record.nextAttemptAt);
  }

  /**
   * On a real clock, a timer runs the attempt when it is due; a virtual clock waits for runDue. A timer may fire before
   * the store's clock says the slot is due (Node's by a millisecond): it waits again then, or the retry would never come.
   */
  #wakeAt(at: number): void {
    if (this.#options.clock instanceof VirtualClock || this.#options.signal.aborted) return;
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        if (this.#options.clock.now() < at) return this.#wakeAt(at);
        void this.runDue();
      },
      Math.max(0, at - this.#options.clock.now()),
    );
    timer.unref();
    this.#timers.add(timer);
  }
}

function attemptOf(slot: number, dueAt: number, outcome: AttemptOutcome): DeliveryAttempt {
  if (outcome.kind === 'failed')
    return { attempt: slot + 1, at: dueAt, status: null, error: `${outcome.code}: ${outcome.error}`, durationMs: outcome.durationMs };
  return {
    attempt: slot + 1,
    at: dueAt,
    status: outcome.status,
    error: isDelivered(outcome) ? null : `the receiver answered ${outcome.status}, not a 2xx`,
    durationMs: outcome.durationMs,
    answer: { headers: outcome.headers, body: outcome.body },
  };
}
