/**
 * The media API's live checks, in two requests: an anonymous catalogue read
 * (does the host answer as the edge API?) and, with a token, the signed-in
 * user's own record, `GET /users?filter[self]=true`. The field notes say an
 * expired or revoked token answers 401 and an unknown one is treated as
 * anonymous, so an empty answer means the token was not recognised. The
 * user's sfwFilter (shown to that user only) says whether adult content is
 * allowed, which the signed-in visibility checks need.
 */
import { STATUS_CODES } from '../http/nodeHttp.ts';
import type { LiveMediaConfig } from '../config/harnessConfig.ts';
import { MediaTransportError } from '../clients/media/errors.ts';
import type { MediaClient } from '../clients/media/MediaClient.ts';
import type { MediaResponse, ResourceObject } from '../clients/media/types.ts';
import { MEDIA_CONTRACT } from '../rules/mediaContract.ts';
import { note, ok, problem, skipped, type Check } from './Check.ts';
import { budgetSpent, isBudgetSpent } from './budgetSpent.ts';
import { unreachableHost } from './unreachableHost.ts';

const MEDIA = 'media';
const SIGN_IN_AGAIN = `sign in again for a new token (POST ${MEDIA_CONTRACT.oauthTokenPath} on KITSU_API_URL's host, grant_type=password; tokens last 30 days) and update KITSU_ACCESS_TOKEN`;

export async function checkMedia(media: LiveMediaConfig, client: MediaClient): Promise<Check[]> {
  const host = await checkHost(media, client);
  if (host.status !== 'ok') {
    const unchecked = 'not checked: the host did not answer as the media API';
    return [host, skipped(MEDIA, 'token', unchecked), skipped(MEDIA, 'adult content', unchecked)];
  }
  if (media.token === undefined) {
    return [
      host,
      note(
        MEDIA,
        'token',
        'none (KITSU_ACCESS_TOKEN unset): only the anonymous checks run; the signed-in and adult-content checks are skipped',
        "set KITSU_ACCESS_TOKEN to a test account's token to run them",
      ),
      skipped(MEDIA, 'adult content', 'not checked: needs KITSU_ACCESS_TOKEN'),
    ];
  }
  return [host, ...(await checkToken(client))];
}

/** Anonymous, so a bad token cannot spoil what the host check says. */
async function checkHost(media: LiveMediaConfig, client: MediaClient): Promise<Check> {
  let response: MediaResponse;
  try {
    response = await client.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 1 }, auth: 'none' });
  } catch (error) {
    if (!(error instanceof MediaTransportError)) throw error;
    return unreachableHost(MEDIA, 'KITSU_API_URL', error.url, error.causeCode);
  }
  const answered = `GET /anime answered ${statusText(response)}`;
  if (response.status === 200 && Array.isArray(response.document?.data)) return ok(MEDIA, 'host', `${media.apiUrl} answers (${answered})`);
  if (response.status === 429 || response.status >= 500) {
    return problem(MEDIA, 'host', `answers with service trouble (${answered}) after a retry`, 'run the doctor again in a few minutes');
  }
  return problem(
    MEDIA,
    'host',
    `${answered}, not a JSON:API collection: ${media.apiUrl} does not look like the media API's edge`,
    `check KITSU_API_URL: the edge API's base, ending in ${MEDIA_CONTRACT.edgePrefix} (e.g. https://kitsu.io/api/edge)`,
  );
}

/** The signed-in user's own record: is the token valid, whose is it, does the account allow adult content. */
async function checkToken(client: MediaClient): Promise<Check[]> {
  let response: MediaResponse;
  try {
    response = await client.send({ method: 'GET', path: '/users', query: { 'filter[self]': 'true' } });
  } catch (error) {
    if (!(error instanceof MediaTransportError)) throw error;
    return [
      isBudgetSpent(error.causeCode)
        ? budgetSpent(MEDIA, 'token')
        : problem(MEDIA, 'token', `not checked: GET /users got no answer (${error.causeCode})`, 'run the doctor again; check KITSU_API_URL if it persists'),
      skipped(MEDIA, 'adult content', 'not checked: no answer'),
    ];
  }
  const answered = `GET /users?filter[self]=true answered ${statusText(response)}`;
  if (response.status === 401) {
    return [problem(MEDIA, 'token', `expired or revoked: ${answered}`, SIGN_IN_AGAIN), skipped(MEDIA, 'adult content', 'not checked: the token was refused')];
  }
  const users = response.status === 200 ? response.document?.data : undefined;
  if (!Array.isArray(users)) {
    return [
      problem(MEDIA, 'token', `not checked: ${answered}, not a collection of users`, 'run the doctor again; check KITSU_API_URL if it persists'),
      skipped(MEDIA, 'adult content', `not checked: ${answered}`),
    ];
  }
  const self = users[0];
  if (self === undefined) {
    return [
      problem(
        MEDIA,
        'token',
        `not recognised: ${answered} with no user, as to an anonymous visitor (the service treats a token it does not know as no token)`,
        `KITSU_ACCESS_TOKEN is not a token of this service (mistyped, or issued by another host than KITSU_API_URL's): ${SIGN_IN_AGAIN}`,
      ),
      skipped(MEDIA, 'adult content', 'not checked: the token was not recognised'),
    ];
  }
  return [ok(MEDIA, 'token', `valid: signed in as ${userName(self)}`), adultContent(self)];
}

/**
 * sfwFilter false: adult media are shown to the user, so the signed-in visibility
 * checks can find them. Newer accounts may show sfwFilterPreference instead.
 */
function adultContent(user: ResourceObject): Check {
  const attributes = user.attributes ?? {};
  const filter = attributes['sfwFilter'];
  const preference = attributes['sfwFilterPreference'];
  const filtered = typeof filter === 'boolean' ? filter : typeof preference === 'string' ? preference === 'sfw' : undefined;
  const shown = typeof filter === 'boolean' ? `sfwFilter ${filter}` : `sfwFilterPreference ${String(preference)}`;
  const fix = "turn off the account's adult-content filter in its settings (sfwFilter false), or use a test account that allows adult content";
  if (filtered === false) return ok(MEDIA, 'adult content', `allowed (${shown}): the signed-in adult-content checks can run`);
  if (filtered === true) return note(MEDIA, 'adult content', `filtered (${shown}): the signed-in adult-content checks will be skipped`, fix);
  return note(MEDIA, 'adult content', "unknown: the user's record shows neither sfwFilter nor sfwFilterPreference", fix);
}

function userName(user: ResourceObject): string {
  const name = user.attributes?.['name'];
  return typeof name === 'string' && name ? `${name} (user ${user.id})` : `user ${user.id}`;
}

function statusText(response: MediaResponse): string {
  const reason = STATUS_CODES[response.status] ?? '';
  const title = response.status >= 400 ? response.document?.errors?.[0]?.title : undefined;
  return `${response.status}${reason ? ` ${reason}` : ''}${typeof title === 'string' && title ? ` ("${title.slice(0, 160)}")` : ''}`;
}
