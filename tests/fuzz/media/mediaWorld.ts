/**
 * The media twin as the fuzzer finds it: signed in as the seeded admin (so
 * writes get past the policies to the checks under test), a second token
 * revoked on purpose (the documented 401), and an id per collection the admin
 * can read. A case that changed the twin (a write that succeeded) is followed
 * by a reset to the seed, so every case meets the same data.
 */
import { request } from 'undici';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { READ_ONLY_COLLECTIONS, STANDARD_COLLECTIONS } from '../../../src/rules/mediaRoutes.ts';
import { MediaTwinControl } from '../../../src/testing/MediaTwinControl.ts';
import type { Exchange } from '../exchange.ts';
import type { RawRequest } from '../rawRequest.ts';
import { collectionOf, type MediaFuzzRoute } from './mediaRouteTable.ts';

/** ASSUMPTIONS.md, Seed: "users 4 admin (admin@twin.test / admin-password, admin role)". */
export const SEEDED_ADMIN = { id: '4', username: 'admin@twin.test', password: 'admin-password' } as const;

export interface KnownId {
  readonly id: string;
  /** Whether the admin can read it (a hidden or missing record answers 404). */
  readonly visible: boolean;
}

export interface MediaWorldState {
  /** The admin's access token. */
  readonly token: string;
  /** A token issued and then revoked: "an expired or revoked token is 401". */
  readonly revokedToken: string;
  /** By collection. */
  readonly ids: Readonly<Record<string, KnownId>>;
}

async function post(url: string, path: string, form: Record<string, string>): Promise<unknown> {
  const res = await request(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`media twin fuzzer: POST ${path} answered ${res.statusCode}: ${text}`);
  return JSON.parse(text);
}

async function signIn(url: string): Promise<string> {
  const grant = (await post(url, MEDIA_CONTRACT.oauthTokenPath, {
    grant_type: 'password',
    username: SEEDED_ADMIN.username,
    password: SEEDED_ADMIN.password,
  })) as {
    access_token: string;
  };
  return grant.access_token;
}

async function tokens(url: string): Promise<Pick<MediaWorldState, 'token' | 'revokedToken'>> {
  const revokedToken = await signIn(url);
  await post(url, MEDIA_CONTRACT.oauthRevokePath, { token: revokedToken });
  return { token: await signIn(url), revokedToken };
}

/** The first record of each collection the admin reads; `1` (unseen) where the list is empty or refuses a bare index. */
async function readableIds(url: string, token: string): Promise<Record<string, KnownId>> {
  const ids: Record<string, KnownId> = {};
  for (const collection of [...STANDARD_COLLECTIONS, ...READ_ONLY_COLLECTIONS]) {
    const res = await request(`${url}${MEDIA_CONTRACT.edgePrefix}/${collection}?page[limit]=1`, { headers: { authorization: `Bearer ${token}` } });
    const document = (await res.body.json()) as { data?: { id: string }[] };
    const first = res.statusCode === 200 ? document.data?.[0] : undefined;
    ids[collection] = first ? { id: first.id, visible: true } : { id: '1', visible: false };
  }
  return ids;
}

export class MediaWorld {
  readonly #url: string;
  readonly #control: MediaTwinControl;
  #state: MediaWorldState;

  private constructor(url: string, state: MediaWorldState) {
    this.#url = url;
    this.#control = new MediaTwinControl(url);
    this.#state = state;
  }

  static async open(url: string): Promise<MediaWorld> {
    await new MediaTwinControl(url).reset();
    const signedIn = await tokens(url);
    return new MediaWorld(url, { ...signedIn, ids: await readableIds(url, signedIn.token) });
  }

  get state(): MediaWorldState {
    return this.#state;
  }

  /** After a write that succeeded: back to the seed (ids are the seed's, so they hold), with fresh tokens (a reset forgets them). */
  async afterCase(sent: RawRequest, outcome: Exchange): Promise<void> {
    if (outcome.kind !== 'answer' || ['GET', 'HEAD'].includes(sent.method)) return;
    if (outcome.answer.status < 200 || outcome.answer.status >= 300) return;
    await this.#control.reset();
    this.#state = { ...this.#state, ...(await tokens(this.#url)) };
  }
}

/** The value a path parameter has in a well-formed request: a record the admin reads, or one whose answer the documentation gives. */
export function wellFormedParam(route: MediaFuzzRoute, param: string, world: MediaWorldState): string {
  const collection = collectionOf(route);
  if (param === 'namespace') return 'anime';
  if (param === 'group') return 'user';
  if (param === 'uuid') return 'fuzz-activity';
  if (param === 'action') return 'media';
  if (collection === 'feeds') return SEEDED_ADMIN.id;
  // DELETE /activities/{id} of a real activity would delete it: an unknown one answers the documented 404.
  if (collection === 'activities') return '999999';
  return world.ids[collection]?.id ?? '1';
}
