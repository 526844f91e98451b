import type { IncomingHttpHeaders } from 'node:http';
import { MEDIA_CONTRACT } from '../../../rules/mediaContract.ts';
import { notAcceptable } from '../jsonapi/errors.ts';

/**
 * 406 unless Accept allows the JSON:API media type (field notes, "Media type,
 * keys, ids"): absent, `*\/*`, `application/*` or `application/vnd.api+json`
 * with at most a `q` parameter. media.jsonapi.accept-parameters-406: the media type
 * named only with a media type parameter is not acceptable (JSON:API).
 */
export function assertAcceptable(headers: IncomingHttpHeaders): void {
  const accept = headers.accept;
  if (accept === undefined || accept.trim() === '') return;
  const acceptable = accept.split(',').some((entry) => {
    const [range = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (range === '*/*' || range === 'application/*') return true;
    return range === MEDIA_CONTRACT.mediaType && params.every((param) => param.startsWith('q='));
  });
  if (!acceptable) throw notAcceptable(accept);
}

/**
 * Whether Content-Type is the JSON:API media type with no parameter but ext or profile
 * (media.jsonapi.content-type-parameters-415; the twin supports no extension, and ignores profiles as JSON:API lets it).
 */
export function isJsonApiContentType(headers: IncomingHttpHeaders): boolean {
  const [type = '', ...params] = (headers['content-type'] ?? '').split(';').map((part) => part.trim().toLowerCase());
  return type === MEDIA_CONTRACT.mediaType && params.every((param) => param === '' || param.startsWith('profile='));
}
