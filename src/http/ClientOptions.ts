import type { Dispatcher } from 'undici';
import type { Clock } from '../clock/Clock.ts';
import type { ClientExchange } from './Exchange.ts';
import type { RetryOptions } from './RetryPolicy.ts';

/** What every client takes besides its API's own options. */
export interface ClientOptions {
  /** Default systemClock; every wait (pacing, back-off) goes through clock.sleep. */
  clock?: Clock;
  retry?: RetryOptions;
  /**
   * What the client's retries and pacing are composed on: a request stack with the live guards
   * (src/http/requestStack.ts), or a dispatcher to make an unguarded one on; default undici's global dispatcher.
   */
  dispatcher?: Dispatcher;
  /** Called for every attempt, secrets redacted: the raw material of reports. */
  onExchange?: (exchange: ClientExchange) => void;
  /** Further values to redact besides the credentials the client knows. */
  secrets?: string[];
}
