import type { Dispatcher } from 'undici';
import type { Clock } from '../clock/Clock.ts';
import type { Exchange } from './Exchange.ts';
import type { RetryOptions } from './RetryPolicy.ts';

/** What every client takes besides its API's own options. */
export interface ClientOptions<E extends Exchange = Exchange> {
  /** Default systemClock; every wait (pacing, back-off) goes through clock.sleep. */
  clock?: Clock;
  retry?: RetryOptions;
  /** The interceptor stack every request is sent through (src/http/interceptors); default undici's global dispatcher. */
  dispatcher?: Dispatcher;
  /** Called for every attempt, secrets redacted: the raw material of reports. */
  onExchange?: (exchange: E) => void;
  /** Further values to redact besides the credentials the client knows. */
  secrets?: string[];
}
