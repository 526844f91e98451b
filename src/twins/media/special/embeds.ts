/**
 * `POST /embeds`: a link preview for a URL, answered 201 with an embed
 * document. The twin never fetches the URL: links to the twin's (or the real
 * site's) anime and manga pages are described from the catalogue, others by host.
 */
import { createHash } from 'node:crypto';
import { canRead } from '../access.ts';
import { isJsonObject } from '../../serving/requestBody.ts';
import { jsonResponse } from '../http/responses.ts';
import { validationFailed } from '../jsonapi/errors.ts';
import type { MediaRecord } from '../model.ts';
import type { ApiContext } from '../operations.ts';
import { specialBody, type SpecialHandler } from './common.ts';

/** The URL of `{"url": ...}` or of a JSON:API body `{"data": {"attributes": {"url": ...}}}`. */
function urlOf(body: unknown): unknown {
  if (!isJsonObject(body)) return undefined;
  const data = body['data'];
  if (isJsonObject(data) && isJsonObject(data['attributes'])) return data['attributes']['url'];
  return body['url'];
}

/** A catalogue title a URL such as `https://kitsu.app/anime/cowboy-bebop` or `/anime/1` points at. */
function mediaAt(context: ApiContext, url: URL): MediaRecord | undefined {
  const match = /\/(anime|manga)\/([^/?#]+)\/?$/.exec(url.pathname);
  if (!match) return undefined;
  const [, type = '', key = ''] = match;
  const found = context.state.all(type).find((media) => media.id === key || media.attributes['slug'] === key);
  return found && canRead(context.state, context.viewer, found) ? found : undefined;
}

export const createEmbed: SpecialHandler = (context) => {
  const raw = urlOf(specialBody(context));
  if (raw === undefined || raw === null || raw === '') throw validationFailed([{ field: 'url', message: "can't be blank" }]);
  let url: URL | undefined;
  try {
    url = typeof raw === 'string' ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw validationFailed([{ field: 'url', message: 'is not a valid URL' }]);
  const media = mediaAt(context, url);
  const poster = media?.attributes['posterImage'];
  const attributes = media
    ? {
        kind: `video.${media.type === 'anime' ? 'tv_show' : 'other'}`,
        url: url.href,
        title: media.attributes['canonicalTitle'] ?? null,
        description: media.attributes['synopsis'] ?? null,
        site: { name: 'Kitsu' },
        image: isJsonObject(poster) ? { url: poster['original'] ?? null } : null,
      }
    : { kind: 'link', url: url.href, title: url.hostname, description: null, site: { name: url.hostname }, image: null };
  const id = createHash('sha1').update(url.href).digest('hex').slice(0, 16);
  return jsonResponse(201, { data: { id, type: 'embeds', attributes } });
};
