/**
 * The library-entry routes beside the standard ones: `_issues` (what the
 * user has not rated or reacted to) and `_bulk` update and delete, which take
 * `filter[id]` or `filter[userId]` as the real controller does.
 */
import { canRead, ownsRecord } from '../access.ts';
import { jsonResponse } from '../http/responses.ts';
import { collectionDocument } from '../jsonapi/document.ts';
import { JsonApiError, forbidden, invalidFieldValue, validationFailed } from '../jsonapi/errors.ts';
import { filterTokens } from '../jsonapi/filters.ts';
import { emptyInclude } from '../jsonapi/include.ts';
import { camelize } from '../jsonapi/names.ts';
import { parseJsonApiQuery } from '../jsonapi/query.ts';
import { readResourceDocument } from '../jsonapi/requestDocument.ts';
import { storedOne, type MediaRecord } from '../model.ts';
import type { ApiContext } from '../operations.ts';
import { LIBRARY_ENTRIES } from '../resources/library.ts';
import { buildDraft, saveDraft, validateDraft } from '../writes.ts';
import { signedInUser, specialBody, type SpecialHandler } from './common.ts';

/** `GET /library-entries/_issues`: ids of the viewer's entries without a rating, without a reaction, and without attribute votes. */
export const libraryIssues: SpecialHandler = (context) => {
  const user = signedInUser(context);
  const entries = context.state.all('libraryEntries').filter((entry) => storedOne(entry, 'user')?.id === user.id);
  const reacted = new Set(context.state.all('mediaReactions').map((reaction) => storedOne(reaction, 'libraryEntry')?.id));
  return jsonResponse(200, {
    meta: {
      ratingIds: entries.filter((entry) => entry.attributes['ratingTwenty'] == null).map((entry) => entry.id),
      reactionIds: entries.filter((entry) => !reacted.has(entry.id)).map((entry) => entry.id),
      // Media attribute votes are not simulated: nothing is ever missing there.
      attributesIds: [],
    },
  });
};

/** The entries `filter[id]` or `filter[userId]` name (other filters are ignored, as on the real service). */
function bulkScope(context: ApiContext): MediaRecord[] {
  const query = parseJsonApiQuery(context.query);
  const ids = new Map<string, (string | null)[]>();
  for (const { name, value } of query.filters) {
    const key = camelize(name);
    if (key !== 'id' && key !== 'userId') continue;
    const tokens = filterTokens(value);
    for (const token of tokens) if (token === null || !/^\d+$/.test(token)) throw invalidFieldValue(key, token ?? '_none');
    ids.set(key, tokens);
  }
  if (ids.size === 0) throw JsonApiError.custom(400, 'No filter provided');
  const byId = ids.get('id');
  const byUser = ids.get('userId');
  return context.state
    .all('libraryEntries')
    .filter((entry) => canRead(context.state, context.viewer, entry))
    .filter((entry) => (!byId || byId.includes(entry.id)) && (!byUser || byUser.includes(storedOne(entry, 'user')?.id ?? null)));
}

/**
 * `PATCH|PUT /library-entries/_bulk` (media.special.bulk-library-entries): sets `status` on every entry in scope, and on
 * no other (media.writes.bulk-applies-to-named); all must be the viewer's.
 */
export const libraryBulkUpdate: SpecialHandler = (context) => {
  const body = specialBody(context);
  const entries = bulkScope(context);
  if (!context.viewer.user || !entries.every((entry) => ownsRecord(context.viewer, entry))) throw forbidden('update', LIBRARY_ENTRIES.singular);
  const write = readResourceDocument(body, LIBRARY_ENTRIES, 'create');
  const status = write.attributes.get('status');
  const only = { attributes: new Map<string, unknown>(status === undefined ? [] : [['status', status]]), relationships: new Map() };
  const saves = entries.map((entry) => {
    const draft = buildDraft(LIBRARY_ENTRIES, only, entry, context.viewer);
    const writeContext = { state: context.state, viewer: context.viewer, action: 'update' as const, previous: entry };
    const issues = validateDraft(LIBRARY_ENTRIES, draft, writeContext);
    if (issues.length > 0) throw validationFailed(issues);
    return () => saveDraft(context.state, LIBRARY_ENTRIES, draft, writeContext);
  });
  const saved = saves.map((save) => save());
  const render = { state: context.state, viewer: context.viewer, baseUrl: context.baseUrl, fields: new Map() };
  return jsonResponse(200, { data: collectionDocument(render, saved, emptyInclude()).data });
};

/** `DELETE /library-entries/_bulk`: deletes every entry in scope; all must be the viewer's. */
export const libraryBulkDelete: SpecialHandler = (context) => {
  const entries = bulkScope(context);
  if (!context.viewer.user || !entries.every((entry) => ownsRecord(context.viewer, entry))) throw forbidden('destroy', LIBRARY_ENTRIES.singular);
  for (const entry of entries) context.state.remove('libraryEntries', entry.id);
  return { status: 204 };
};
