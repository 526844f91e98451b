/**
 * A scripted Store API on a local port for the client's unit tests
 * (tests/unit/support/scriptedServer.ts). The
 * FakeBucket is the documented leaky bucket on the test's VirtualClock, so a
 * test can act as the provider's rate limiter exactly.
 */
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../../../../src/clock/Clock.ts';
import { STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from '../../support/scriptedServer.ts';

export { refusedOrigin, type RecordedRequest, type Reply } from '../../support/scriptedServer.ts';

export const STORE_ID = 100001;
export const TOKEN = 'tok-secret-123456';
export const USER_AGENT = 'Harness unit tests (https://example.com/contact)';

export interface FakeStore extends ScriptedServer {
  /** {origin}/v1/{STORE_ID} */
  readonly baseUrl: string;
}

export async function startFakeStore(handler: (request: RecordedRequest) => Reply | Promise<Reply>): Promise<FakeStore> {
  const server = await startScriptedServer(handler, { contentType: 'application/json; charset=utf-8', headersOf: lowerCase });
  return { origin: server.origin, baseUrl: `${server.origin}/v1/${STORE_ID}`, requests: server.requests, close: server.close };
}

// Raw headers: a repeated header keeps its last value as sent, not Node's merge.
function lowerCase(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) out[req.rawHeaders[i]!.toLowerCase()] = req.rawHeaders[i + 1]!;
  return out;
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
