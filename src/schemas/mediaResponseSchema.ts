/**
 * Which schema a Media API answer must satisfy, from its method, path and
 * status: the per-type schema for the catalogue routes, the generic JSON:API
 * document or error document for every other route under /api/edge. The media
 * suites check every answer they see against it.
 */
const TYPED: Record<string, string> = {
  anime: 'anime',
  manga: 'manga',
  episodes: 'episode',
  categories: 'category',
  'library-entries': 'library-entry',
};

/** `path` is relative to {base_url}/api/edge, without the query. */
export function mediaResponseSchema(method: string, path: string, status: number): string | undefined {
  if (status === 204 || method === 'HEAD') return undefined;
  if (status >= 400) return 'media/error-document';
  // Field notes: the invite actions answer a bare {} (201 or 200), as the real server does.
  if (/\/group-invites\/[^/]+\/_(accept|decline|revoke)$/.test(path)) return undefined;
  const [, collection, id, more] = path.split('/');
  const typed = collection ? TYPED[collection] : undefined;
  if (method === 'GET' && typed && more === undefined && (id === undefined || /^\d+$/.test(id))) {
    return `media/${typed}-${id === undefined ? 'collection' : 'document'}`;
  }
  return 'media/document';
}
