import type { UnreadableAnswer } from './ClientError.ts';
import type { RawResponse } from './transport.ts';

/** An answer as every client hands it out; each client adds what its API's answers carry. */
export interface ClientResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** Parses text once; throws the client's invalid-response error when it is not JSON. */
  json<T = unknown>(): T;
  /** The URL requested, secrets redacted. */
  url: string;
  method: string;
}

/** What reading an answer needs to know of its request. */
export interface ReadContext {
  method: string;
  /** Redacted. */
  url: string;
  redactText: (text: string) => string;
}

/** The ClientResponse of a raw answer; `unreadable` makes the client's error for a body that is not JSON. */
export function toClientResponse(raw: RawResponse, context: ReadContext, unreadable: (details: UnreadableAnswer) => Error): ClientResponse {
  let parsed: { value: unknown } | undefined;
  return {
    status: raw.status,
    headers: raw.headers,
    text: raw.text,
    url: context.url,
    method: context.method,
    json<T = unknown>(): T {
      try {
        parsed ??= { value: JSON.parse(raw.text) };
      } catch {
        throw unreadable({ status: raw.status, method: context.method, url: context.url, what: 'a body that is not JSON', text: context.redactText(raw.text) });
      }
      return parsed.value as T;
    },
  };
}
