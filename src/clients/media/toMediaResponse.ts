import { toClientResponse, type ReadContext } from '../../http/ClientResponse.ts';
import type { RawResponse } from '../../http/transport.ts';
import { MediaInvalidResponseError } from './errors.ts';
import { isRecord } from './toResource.ts';
import type { JsonApiDocument, MediaResponse } from './types.ts';

/** The MediaResponse of a raw answer: the body parsed once, kept as `document` when it is a JSON object. */
export function toMediaResponse(raw: RawResponse, context: ReadContext): MediaResponse {
  const response = toClientResponse(raw, context, (details) => new MediaInvalidResponseError(details));
  let body: unknown;
  try {
    body = response.json();
  } catch {
    body = undefined;
  }
  return { ...response, ...(isRecord(body) ? { document: body as JsonApiDocument } : {}) };
}
