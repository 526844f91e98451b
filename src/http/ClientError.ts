/**
 * The one error base of the typed clients, in the manner of undici's
 * lib/core/errors.js: a class per kind of failure, each with `name` and a
 * stable `code` that tests and reports match on, not the wording. The kinds
 * every client shares live here; each client declares its own class of each
 * kind, with its literal code, in its errors.ts (StoreConfigError,
 * MediaTransportError, …), beside its own vocabulary (the store's 402, the
 * media's OAuth refusals). URLs and bodies are redacted before they get here.
 *
 * Codes: `<PREFIX>_ERR_<KIND>`, e.g. STORE_ERR_TRANSPORT, MEDIA_ERR_CONFIG.
 */
import { STATUS_CODES } from './nodeHttp.ts';

/** How a client's errors are worded: its code prefix, the API's name, and what the contract calls a readable answer. */
export interface ErrorWording {
  /** The code prefix: STORE → STORE_ERR_TRANSPORT; also each error's `api`. */
  readonly prefix: string;
  /** The API's name in messages: "Store client: …", "Store API answered …". */
  readonly api: string;
  /** What the contract says a readable answer is, for the fix of an unreadable one. */
  readonly contract: string;
}

export class ClientError extends Error {
  readonly code: string;
  /** The wording's prefix: which client speaks. */
  readonly api: string;

  constructor(wording: ErrorWording, code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.api = wording.prefix;
    this.code = code;
  }
}

/** The client was constructed with options it cannot work with. */
export class ClientConfigError extends ClientError {}

/** A request the client refuses to send (e.g. the token to a foreign origin). */
export class ClientRequestError extends ClientError {}

/** What a send that got no answer knew when it gave up. */
export interface TransportFailure {
  method: string;
  url: string;
  attempts: number;
  causeCode: string;
  causeMessage: string;
  cause?: unknown;
}

/** No HTTP answer at all, after the retries. */
export class ClientTransportError extends ClientError {
  readonly method: string;
  readonly url: string;
  readonly attempts: number;
  /** The network error's own code, e.g. ECONNREFUSED or UND_ERR_SOCKET. */
  readonly causeCode: string;

  constructor(wording: ErrorWording, code: string, details: TransportFailure) {
    super(
      wording,
      code,
      `${wording.api} client: ${details.method} ${details.url} got no answer after ${details.attempts} attempt(s): ` +
        `${details.causeCode} ${details.causeMessage}. ` +
        `Fix: check that the ${wording.api} API (or its twin) is running and reachable at the client's baseUrl.`,
      { cause: details.cause },
    );
    this.method = details.method;
    this.url = details.url;
    this.attempts = details.attempts;
    this.causeCode = details.causeCode;
  }
}

/** An answer the client cannot read, and what was wrong with it. */
export interface UnreadableAnswer {
  status: number;
  method: string;
  url: string;
  what: string;
  text: string;
}

/** An answer the client cannot read as the contract says (a body that is not JSON, a collection that is not one). */
export class ClientInvalidResponseError extends ClientError {
  readonly status: number;
  readonly method: string;
  readonly url: string;

  constructor(wording: ErrorWording, code: string, details: UnreadableAnswer) {
    super(
      wording,
      code,
      `${wording.api} API answered ${details.method} ${details.url} with ${details.status} and ${details.what}: ` +
        `${JSON.stringify(details.text.slice(0, 200))}. ` +
        `Fix: this is the provider breaking the contract (${wording.contract}); report it.`,
    );
    this.status = details.status;
    this.method = details.method;
    this.url = details.url;
  }
}

/** What every answer that is not 2xx carries into its error. */
export interface RefusedAnswer {
  status: number;
  method: string;
  url: string;
  /** Retries spent before giving up. */
  retries: number;
}

/** The API answered with a status that is not 2xx; each client says what the status means. */
export class ClientApiError extends ClientError {
  readonly status: number;
  readonly method: string;
  readonly url: string;
  /** The parsed body, or the text when it is not JSON. */
  readonly body: unknown;
  readonly retries: number;

  constructor(wording: ErrorWording, code: string, details: RefusedAnswer & { body: unknown }, message: string) {
    super(wording, code, message);
    this.status = details.status;
    this.method = details.method;
    this.url = details.url;
    this.body = details.body;
    this.retries = details.retries;
  }
}

/** `<API> API answered 404 Not Found to GET <url>< ("what it said")>. <what it means> Fix: <fix>` */
export function refusalMessage(wording: ErrorWording, details: RefusedAnswer, said: string, meaning: string, fix: string): string {
  const reason = STATUS_CODES[details.status] ?? 'Unknown Status';
  return `${wording.api} API answered ${details.status} ${reason} to ${details.method} ${details.url}${said}. ${meaning} Fix: ${fix}`;
}

/** The body of an answer: parsed JSON, or the text when it is not JSON. */
export function bodyOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
