/**
 * Lists of media computed for the viewer: trending (everyone), and
 * recommendations and category recommendations (signed in only). Each answers
 * `{data: [...]}` only, like the real trending controller; adult media are
 * left out for viewers who hide them.
 */
import { jsonResponse, type TwinResponse } from '../http/responses.ts';
import { collectionDocument } from '../jsonapi/document.ts';
import { JsonApiError } from '../jsonapi/errors.ts';
import { emptyInclude } from '../jsonapi/include.ts';
import { storedMany, storedOne, type MediaRecord } from '../model.ts';
import type { ApiContext } from '../operations.ts';
import { readNamespace, signedInUser, visibleRecords, type SpecialHandler } from './common.ts';

const LIST_SIZE = 10;
const MAX_TRENDING = 20;

function renderList(context: ApiContext, records: readonly MediaRecord[]): TwinResponse {
  const render = { state: context.state, viewer: context.viewer, baseUrl: context.baseUrl, fields: new Map() };
  return jsonResponse(200, { data: collectionDocument(render, records, emptyInclude()).data });
}

const byNumber =
  (name: string, descending: boolean) =>
  (a: MediaRecord, b: MediaRecord): number => {
    const left = Number(a.attributes[name] ?? (descending ? -Infinity : Infinity));
    const right = Number(b.attributes[name] ?? (descending ? -Infinity : Infinity));
    return (descending ? right - left : left - right) || Number(a.id) - Number(b.id);
  };

/**
 * `GET /trending/{anime|manga}` (media.special.trending): the most followed titles (by userCount), `{data}` only;
 * `limit` as on the real service (1-20, default 10).
 */
export const trending: SpecialHandler = (context, params) => {
  const namespace = readNamespace(params['namespace']);
  const raw = context.query.get('limit');
  const limit = raw === null ? LIST_SIZE : Number(raw);
  if (raw !== null && (!/^\d+$/.test(raw) || limit < 1 || limit > MAX_TRENDING)) {
    throw JsonApiError.custom(400, `limit must be a whole number from 1 to ${MAX_TRENDING}`);
  }
  const records = visibleRecords(context, namespace).sort(byNumber('userCount', true));
  return renderList(context, records.slice(0, limit));
};

/** The viewer's library entries of one namespace, most recently updated first. */
function libraryOf(context: ApiContext, userId: string, namespace: string): MediaRecord[] {
  return context.state
    .all('libraryEntries')
    .filter((entry) => storedOne(entry, 'user')?.id === userId && storedOne(entry, 'media')?.type === namespace)
    .sort((a, b) => String(b.attributes['updatedAt']).localeCompare(String(a.attributes['updatedAt'])) || Number(b.id) - Number(a.id));
}

/** Visible media of the namespace the user has not put in the library, best rated first. */
function candidates(context: ApiContext, userId: string, namespace: string): MediaRecord[] {
  const inLibrary = new Set(libraryOf(context, userId, namespace).map((entry) => storedOne(entry, 'media')?.id));
  return visibleRecords(context, namespace)
    .filter((media) => !inLibrary.has(media.id))
    .sort(byNumber('averageRating', true));
}

function categoriesOf(context: ApiContext, mediaIds: readonly (string | undefined)[], namespace: string): Set<string> {
  return new Set(
    mediaIds.flatMap((id) => {
      const media = id ? context.state.get(namespace, id) : undefined;
      return media ? storedMany(media, 'categories').map((ref) => ref.id) : [];
    }),
  );
}

function sharingCategories(records: readonly MediaRecord[], categories: ReadonlySet<string>): MediaRecord[] {
  return records.filter((media) => storedMany(media, 'categories').some((ref) => categories.has(ref.id)));
}

/** `GET /recommendations/{namespace}`: titles outside the library, best rated first. */
export const recommendations: SpecialHandler = (context, params) => {
  const user = signedInUser(context);
  const namespace = readNamespace(params['namespace']);
  return renderList(context, candidates(context, user.id, namespace).slice(0, LIST_SIZE));
};

/** `.../realtime`: the same, favouring the categories of the title last updated in the library. */
export const realtimeRecommendations: SpecialHandler = (context, params) => {
  const user = signedInUser(context);
  const namespace = readNamespace(params['namespace']);
  const latest = libraryOf(context, user.id, namespace)[0];
  const pool = candidates(context, user.id, namespace);
  const related = latest ? sharingCategories(pool, categoriesOf(context, [storedOne(latest, 'media')?.id], namespace)) : [];
  return renderList(context, (related.length > 0 ? related : pool).slice(0, LIST_SIZE));
};

/** The user's favourite categories, or else those of the titles in the library. */
function favouriteCategories(context: ApiContext, userId: string, namespace: string): Set<string> {
  const favourites = context.state
    .all('categoryFavorites')
    .filter((favorite) => storedOne(favorite, 'user')?.id === userId)
    .flatMap((favorite) => storedOne(favorite, 'category')?.id ?? []);
  if (favourites.length > 0) return new Set(favourites);
  return categoriesOf(
    context,
    libraryOf(context, userId, namespace).map((entry) => storedOne(entry, 'media')?.id),
    namespace,
  );
}

/** `GET /category_recommendations/{namespace}`: titles in the user's favourite categories, outside the library. */
export const categoryRecommendations: SpecialHandler = (context, params) => {
  const user = signedInUser(context);
  const namespace = readNamespace(params['namespace']);
  const categories = favouriteCategories(context, user.id, namespace);
  return renderList(context, sharingCategories(candidates(context, user.id, namespace), categories).slice(0, LIST_SIZE));
};

/** `.../realtime`: the categories of the title last updated in the library only. */
export const realtimeCategoryRecommendations: SpecialHandler = (context, params) => {
  const user = signedInUser(context);
  const namespace = readNamespace(params['namespace']);
  const latest = libraryOf(context, user.id, namespace)[0];
  const categories = latest ? categoriesOf(context, [storedOne(latest, 'media')?.id], namespace) : favouriteCategories(context, user.id, namespace);
  return renderList(context, sharingCategories(candidates(context, user.id, namespace), categories).slice(0, LIST_SIZE));
};
