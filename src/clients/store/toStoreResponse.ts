import { StoreInvalidResponseError } from './errors.ts';
import { parseLinkHeader } from './parseLinkHeader.ts';
import { rateHeaders } from './rateHeaders.ts';
import type { RawResponse } from '../../http/transport.ts';
import type { StoreResponse } from './types.ts';

/**
 * The StoreResponse of a raw answer: rate headers, Link targets and
 * X-Total-Count read once, JSON parsed on demand.
 */
export function toStoreResponse(raw: RawResponse, context: { method: string; url: string; redactText: (text: string) => string }): StoreResponse {
  const rate = rateHeaders(raw.headers);
  const total = raw.headers['x-total-count']?.trim();
  let parsed: { value: unknown } | undefined;
  return {
    status: raw.status,
    headers: raw.headers,
    text: raw.text,
    url: context.url,
    method: context.method,
    links: parseLinkHeader(raw.headers['link']),
    ...(rate ? { rate } : {}),
    ...(total !== undefined && /^\d+$/.test(total) ? { totalCount: Number(total) } : {}),
    json<T = unknown>(): T {
      if (!parsed) {
        try {
          parsed = { value: JSON.parse(raw.text) };
        } catch {
          throw new StoreInvalidResponseError({
            status: raw.status,
            method: context.method,
            url: context.url,
            what: 'a body that is not JSON',
            text: context.redactText(raw.text),
          });
        }
      }
      return parsed.value as T;
    },
  };
}
