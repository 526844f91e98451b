import { toClientResponse, type ReadContext } from '../../http/ClientResponse.ts';
import type { RawResponse } from '../../http/transport.ts';
import { StoreInvalidResponseError } from './errors.ts';
import { parseLinkHeader } from './parseLinkHeader.ts';
import { rateHeaders } from './rateHeaders.ts';
import type { StoreResponse } from './types.ts';

/**
 * The StoreResponse of a raw answer: rate headers, Link targets and
 * X-Total-Count read once, JSON parsed on demand.
 */
export function toStoreResponse(raw: RawResponse, context: ReadContext): StoreResponse {
  const rate = rateHeaders(raw.headers);
  const total = raw.headers['x-total-count']?.trim();
  return {
    ...toClientResponse(raw, context, (details) => new StoreInvalidResponseError(details)),
    links: parseLinkHeader(raw.headers['link']),
    ...(rate ? { rate } : {}),
    ...(total !== undefined && /^\d+$/.test(total) ? { totalCount: Number(total) } : {}),
  };
}
