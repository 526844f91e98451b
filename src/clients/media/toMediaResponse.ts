import type { RawResponse } from '../../http/transport.ts';
import { MediaInvalidResponseError } from './errors.ts';
import { isRecord } from './toResource.ts';
import type { JsonApiDocument, MediaResponse } from './types.ts';

/** The MediaResponse of a raw answer: the body parsed once, kept as `document` when it is a JSON object. */
export function toMediaResponse(raw: RawResponse, context: { method: string; url: string; redactText: (text: string) => string }): MediaResponse {
  let parsed: { value: unknown } | undefined;
  try {
    if (raw.text.trim() !== '') parsed = { value: JSON.parse(raw.text) };
  } catch {
    parsed = undefined;
  }
  return {
    status: raw.status,
    headers: raw.headers,
    text: raw.text,
    url: context.url,
    method: context.method,
    ...(parsed && isRecord(parsed.value) ? { document: parsed.value as JsonApiDocument } : {}),
    json<T = unknown>(): T {
      if (!parsed) {
        throw new MediaInvalidResponseError({
          status: raw.status,
          method: context.method,
          url: context.url,
          what: 'a body that is not JSON',
          text: context.redactText(raw.text),
        });
      }
      return parsed.value as T;
    },
  };
}
