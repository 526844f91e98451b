/**
 * `POST /uploads/_bulk`: several uploads in one request, `{"data": [upload,
 * ...]}`, all checked before any is saved; 201 with the collection document.
 */
import { isJsonObject } from '../../serving/requestBody.ts';
import { jsonResponse } from '../http/responses.ts';
import { collectionDocument } from '../jsonapi/document.ts';
import { badRequest, forbidden, paramMissing, validationFailed } from '../jsonapi/errors.ts';
import { emptyInclude } from '../jsonapi/include.ts';
import { readResourceDocument } from '../jsonapi/requestDocument.ts';
import { UPLOADS } from '../resources/social.ts';
import { buildDraft, draftRecord, saveDraft, validateDraft } from '../writes.ts';
import { specialBody, type SpecialHandler } from './common.ts';

const MAX_UPLOADS = 20;

export const bulkUploads: SpecialHandler = (context) => {
  const body = specialBody(context);
  if (!isJsonObject(body) || !Object.hasOwn(body, 'data')) throw paramMissing('data');
  const items = body['data'];
  if (!Array.isArray(items))
    throw badRequest(
      'data must be a list of upload resource objects, e.g. {"data": [{"type": "uploads", "attributes": {"content": "data:image/png;base64,..."}}]}.',
    );
  if (items.length > MAX_UPLOADS) throw badRequest(`A bulk upload takes at most ${MAX_UPLOADS} uploads; send the rest in another request.`);
  const writeContext = { state: context.state, viewer: context.viewer, action: 'create' as const, previous: undefined };
  const drafts = items.map((item) => {
    const draft = buildDraft(UPLOADS, readResourceDocument({ data: item }, UPLOADS, 'create'), undefined, context.viewer);
    if (!UPLOADS.policy.create(context.viewer, draftRecord(UPLOADS, draft), context.state)) throw forbidden('create', UPLOADS.singular);
    const issues = validateDraft(UPLOADS, draft, writeContext);
    if (issues.length > 0) throw validationFailed(issues);
    return draft;
  });
  if (!context.viewer.user) throw forbidden('create', UPLOADS.singular);
  const saved = drafts.map((draft) => saveDraft(context.state, UPLOADS, draft, writeContext));
  const render = { state: context.state, viewer: context.viewer, baseUrl: context.baseUrl, fields: new Map() };
  return jsonResponse(201, { data: collectionDocument(render, saved, emptyInclude()).data });
};
