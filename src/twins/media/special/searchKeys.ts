/**
 * Search keys (the contract's `/search-keys`; the real service serves
 * `/algolia-keys` and `/typesense-keys` instead, see ROUTES_NOT_SERVED_ON_LIVE): a key
 * and an index name per kind of search, as `searchKeys` resources.
 */
import { jsonResponse } from '../http/responses.ts';
import { recordNotFound } from '../jsonapi/errors.ts';
import { decodeSegment } from '../../serving/requestTarget.ts';
import type { ApiContext } from '../operations.ts';
import type { SpecialHandler } from './common.ts';

export const SEARCH_ACTIONS = ['media', 'users', 'groups', 'posts', 'characters', 'people'] as const;

function searchKey(context: ApiContext, action: string): Record<string, unknown> {
  // A signed-in user gets a key of their own, as the real service scopes keys to the user.
  const scope = context.viewer.user ? `user-${context.viewer.user.id}` : 'public';
  return {
    id: action,
    type: 'searchKeys',
    links: { self: `${context.baseUrl}/search-keys/${action}` },
    attributes: { key: `twin-search-key-${action}-${scope}`, index: `twin_${action}` },
  };
}

export const allSearchKeys: SpecialHandler = (context) =>
  jsonResponse(200, { data: SEARCH_ACTIONS.map((action) => searchKey(context, action)), meta: { count: SEARCH_ACTIONS.length } });

export const oneSearchKey: SpecialHandler = (context, params) => {
  const action = decodeSegment(params['action'] ?? '');
  if (!(SEARCH_ACTIONS as readonly string[]).includes(action)) throw recordNotFound(action);
  return jsonResponse(200, { data: searchKey(context, action) });
};
