/**
 * A scripted Store API on a local port for the client's unit tests: every
 * request is recorded as it arrived, and a handler decides the answer. The
 * FakeBucket is the documented leaky bucket on the test's VirtualClock, so a
 * test can act as the provider's rate limiter exactly.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../../src/clock/Clock.ts';
import { STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';

export const STORE_ID = 100001;
export const TOKEN = 'tok-secret-123456';
export const USER_AGENT = 'Harness unit tests (https://example.com/contact)';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is. */
  text?: string;
  /** Drop the connection instead of answering. */
  destroy?: boolean;
}

export interface FakeStore {
  readonly origin: string;
  /** {origin}/v1/{STORE_ID} */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeStore(handler: (request: RecordedRequest) => Reply | Promise<Reply>): Promise<FakeStore> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: lowerCase(req), body: await bodyOf(req) };
    requests.push(recorded);
    const reply = await handler(recorded);
    if (reply.destroy) {
      req.socket.destroy();
      return;
    }
    const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/v1/${STORE_ID}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: connections are refused. */
export async function refusedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function lowerCase(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) out[req.rawHeaders[i]!.toLowerCase()] = req.rawHeaders[i + 1]!;
  return out;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// 1000 units a request, 2 units a millisecond: whole-millisecond clocks stay exact.
const UNITS = 1000;
const UNITS_PER_MS = (STORE_CONTRACT.leakPerSecond * UNITS) / 1000;

/** The documented bucket (40, leaking 2/s) on a clock, with the three rate headers. */
export class FakeBucket {
  readonly capacity: number = STORE_CONTRACT.bucketSize;
  readonly #clock: Clock;
  #units = 0;
  #at: number;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#at = clock.now();
  }

  /** Level in units (1000 per request) now. */
  units(): number {
    const now = this.#clock.now();
    this.#units = Math.max(0, this.#units - (now - this.#at) * UNITS_PER_MS);
    this.#at = now;
    return this.#units;
  }

  /** Admits one request if it fits. */
  tryAdd(): boolean {
    if (this.units() + UNITS > this.capacity * UNITS) return false;
    this.#units += UNITS;
    return true;
  }

  /** Whether one more request fits a bucket at this level (in units). */
  fitsAtLevel(units: number): boolean {
    return units + UNITS <= this.capacity * UNITS;
  }

  /** One millisecond of leak, in units. */
  static readonly UNITS_PER_MS = UNITS_PER_MS;

  headers(): Record<string, string> {
    const units = this.units();
    return {
      'X-Rate-Limit-Limit': String(this.capacity),
      'X-Rate-Limit-Remaining': String(Math.max(0, Math.floor((this.capacity * UNITS - units) / UNITS))),
      'X-Rate-Limit-Reset': String(Math.ceil(units / UNITS_PER_MS)),
    };
  }
}
