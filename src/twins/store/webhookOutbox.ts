import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isLoopbackHost } from './resources/webhooks.ts';

/** Header carrying the signature of a delivery (store.webhooks.hmac-signature). */
export const SIGNATURE_HEADER = 'X-Linkedstore-HMAC-SHA256';

/** Lower-case hex HMAC-SHA256 of the raw body, keyed with the store's app secret. */
export function signWebhookBody(body: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(body, 'utf8').digest('hex');
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'not-sent';

/** One delivery as the control API shows it. */
export interface DeliveryRecord {
  readonly id: number;
  readonly event: string;
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  state: DeliveryState;
  /** The receiver's HTTP status, when it answered. */
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
  /** Aborts deliveries in flight when the twin closes. */
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
  /** Oldest records are dropped past this, so a long-running twin stays small. */
  readonly maxRecords?: number;
}

/**
 * Sends webhook deliveries and records each one. One attempt per delivery, no
 * retries; only loopback receivers are called, other URLs are recorded as
 * `not-sent` (see ASSUMPTIONS.md). A failing receiver never reaches the caller.
 */
export class WebhookOutbox {
  readonly #records: DeliveryRecord[] = [];
  readonly #pending = new Set<Promise<void>>();
  readonly #options: Required<OutboxOptions>;
  #lastId = 0;

  constructor(options: OutboxOptions) {
    this.#options = { timeoutMs: 5_000, maxRecords: 1_000, ...options };
  }

  enqueue(delivery: OutgoingDelivery): void {
    this.#lastId += 1;
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'store-commerce-twin',
      [SIGNATURE_HEADER]: signWebhookBody(delivery.body, delivery.secret),
    };
    const record: DeliveryRecord = {
      id: this.#lastId,
      event: delivery.event,
      url: delivery.url,
      body: delivery.body,
      headers,
      state: 'pending',
      status: null,
      error: null,
    };
    this.#records.push(record);
    if (this.#records.length > this.#options.maxRecords) this.#records.shift();
    const url = URL.parse(delivery.url); // validated at registration; checked again so a bad one is recorded, not thrown
    if (url === null) {
      record.state = 'failed';
      record.error = 'the webhook URL cannot be parsed';
      return;
    }
    if (!isLoopbackHost(url.hostname)) {
      record.state = 'not-sent';
      record.error = 'the twin only calls receivers on 127.0.0.1, localhost or [::1]';
      return;
    }
    const sending = this.#send(url, record).finally(() => this.#pending.delete(sending));
    this.#pending.add(sending);
  }

  async #send(url: URL, record: DeliveryRecord): Promise<void> {
    try {
      const status = await post(url, record.body, record.headers, this.#options.signal, this.#options.timeoutMs);
      record.status = status;
      record.state = status >= 200 && status < 300 ? 'delivered' : 'failed';
      if (record.state === 'failed') record.error = `receiver answered ${status}`;
    } catch (error) {
      record.state = 'failed';
      record.error = error instanceof Error ? error.message : String(error);
    }
  }

  /** Copies of the records, oldest first. */
  list(): DeliveryRecord[] {
    return this.#records.map((record) => ({ ...record }));
  }

  /** Waits until no delivery is in flight, including ones started while waiting. */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}

function post(url: URL, body: string, headers: Readonly<Record<string, string>>, signal: AbortSignal, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // agent: false: no pooled sockets outlive the twin.
    const req = send(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent: false, signal, timeout: timeoutMs },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`receiver did not answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
