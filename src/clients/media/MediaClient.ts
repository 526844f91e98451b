/**
 * The typed JSON:API client of the Media Tracking API
 * (../shared/specs/media-tracking-api.md; real-service details from the field notes).
 *
 * `send` is the low-level door the suites use to observe the provider: it
 * never throws for an HTTP status. The resource methods on top of it throw
 * typed errors (errors.ts) and follow links.next for whole collections. Every
 * request goes through the core's stack (src/http/ClientCore.ts): retried by
 * MediaRetryPolicy, each attempt passed through the live guards, and reported to
 * `onExchange` with its secrets (tokens, passwords, the Authorization header)
 * redacted. This file holds only the media API's vocabulary.
 */
import { httpBaseUrl } from '../../http/httpBaseUrl.ts';
import { redactText, redactUrl } from '../../http/redact.ts';
import { ClientCore, type Sent } from '../../http/ClientCore.ts';
import { MEDIA_CONTRACT } from '../../rules/mediaContract.ts';
import { buildRequest } from './buildRequest.ts';
import {
  apiErrorFor,
  MediaConfigError,
  MediaInvalidResponseError,
  MediaRequestError,
  MediaTransportError,
  OAuthError,
  type ApiErrorDetails,
} from './errors.ts';
import { queryString } from './queryString.ts';
import { MediaRetryPolicy } from './MediaRetryPolicy.ts';
import { toMediaResponse } from './toMediaResponse.ts';
import { isRecord, toResource } from './toResource.ts';
import type {
  CollectionLinkName,
  CollectionPage,
  JsonApiDocument,
  MediaClientOptions,
  MediaRequest,
  MediaResponse,
  OAuthGrant,
  OAuthToken,
  QueryParams,
  RelationshipInput,
  Resource,
  SingleDocument,
} from './types.ts';

const DEFAULT_USER_AGENT = 'api-contract-harness media client';
const FORM = 'application/x-www-form-urlencoded';
const COLLECTION_LINKS: readonly CollectionLinkName[] = ['first', 'prev', 'next', 'last', 'self'];

export class MediaClient {
  /** The service's base URL, ending with /api/edge, without a trailing slash. */
  readonly baseUrl: string;
  readonly #base: URL;
  #token: string | undefined;
  readonly #userAgent: string;
  readonly #clientId: string | undefined;
  readonly #clientSecret: string | undefined;
  readonly #core: ClientCore<MediaResponse>;
  /** Every credential the client has seen; grows as tokens are issued. */
  readonly #secrets = new Set<string>();

  constructor(options: MediaClientOptions) {
    this.#base = baseUrlOf(options.baseUrl);
    this.baseUrl = this.#base.href.replace(/\/+$/, '');
    this.#token = optional('token', options.token, 'leave token out for anonymous requests, or pass an access token');
    this.#userAgent = optional('userAgent', options.userAgent, 'leave it out for the default, or name the app and a contact') ?? DEFAULT_USER_AGENT;
    this.#clientId = optional('clientId', options.clientId, 'leave it out, or pass the OAuth client id');
    this.#clientSecret = optional('clientSecret', options.clientSecret, 'leave it out, or pass the OAuth client secret');
    this.#core = new ClientCore(options, {
      policy: new MediaRetryPolicy(options.retry),
      read: toMediaResponse,
      noAnswer: (failure) => new MediaTransportError(failure),
    });
    for (const secret of [this.#token, this.#clientSecret, ...(options.secrets ?? [])]) this.#remember(secret);
  }

  /** Whether requests carry a token (set by the token option or by `token()`). */
  get signedIn(): boolean {
    return this.#token !== undefined;
  }

  /**
   * Sends one request and answers whatever the provider said, after the retries
   * MediaRetryPolicy allows. Throws only when no answer came (MediaTransportError)
   * or the request itself is unusable (MediaRequestError).
   */
  async send(request: MediaRequest): Promise<MediaResponse> {
    return (await this.#send(request)).response;
  }

  // --- Resources --------------------------------------------------------------

  /** One page of a collection: GET /{collection}?include=..&fields[..]=..&filter[..]=..&sort=..&page[..]=.. */
  async list(collection: string, params: QueryParams = {}): Promise<CollectionPage> {
    const response = await this.#expectOk({ method: 'GET', path: pathWithQuery(collectionPath(collection), params) });
    return this.#page(response);
  }

  /** Every resource of a collection, page after page through links.next only (never building offsets). */
  async *iterate(collection: string, params: QueryParams = {}): AsyncGenerator<Resource> {
    let page = await this.list(collection, params);
    yield* page.data;
    const visited = new Set<string>();
    let next = page.links.next;
    while (next !== undefined) {
      const target = resolvedUrl(next, this.#base);
      if (target === undefined) throw this.#invalid(page.response, `a links.next that is not a URL (${JSON.stringify(this.#redactText(next))})`);
      // A page with no resources is past the end: a next link from there would lead a walk on for ever (and through the live budget).
      if (page.data.length === 0) throw this.#invalid(page.response, `a links.next on a page with no resources, past the end (${this.#redactUrl(target)})`);
      if (visited.has(target)) {
        throw new MediaInvalidResponseError({
          status: page.response.status,
          method: 'GET',
          url: this.#redactUrl(target),
          what: 'a links.next that points back to a page already read',
          text: '',
        });
      }
      visited.add(target);
      // The token goes only to this API: a links.next to another host or outside the base is not followed with it.
      const base = this.#base.href.replace(/\/+$/, '');
      if (!target.startsWith(`${base}/`)) {
        throw this.#invalid(
          page.response,
          `a links.next outside the API's base ${this.#redactUrl(base)}, not followed with the token (${this.#redactUrl(target)})`,
        );
      }
      page = this.#page(await this.#expectOk({ method: 'GET', url: target }));
      yield* page.data;
      next = page.links.next;
    }
  }

  /** GET /{collection}/{id}, with include and fields when given. */
  async get(collection: string, id: string, params: QueryParams = {}): Promise<SingleDocument> {
    const response = await this.#expectOk({ method: 'GET', path: pathWithQuery(resourcePath(collection, id), params) });
    return this.#single(response);
  }

  /** POST /{collection} with `{data: {type, attributes, relationships}}`. */
  async create(
    collection: string,
    type: string,
    attributes: Record<string, unknown>,
    relationships?: Record<string, RelationshipInput>,
  ): Promise<SingleDocument> {
    const data: Record<string, unknown> = { type, attributes };
    if (relationships) data.relationships = Object.fromEntries(Object.entries(relationships).map(([name, value]) => [name, relationshipOf(value)]));
    return this.#single(await this.#expectOk({ method: 'POST', path: collectionPath(collection), body: { data } }));
  }

  /** PATCH /{collection}/{id} with `{data: {id, type, attributes}}`. */
  async update(collection: string, id: string, type: string, attributes: Record<string, unknown>): Promise<SingleDocument> {
    const response = await this.#expectOk({ method: 'PATCH', path: resourcePath(collection, id), body: { data: { id, type, attributes } } });
    return this.#single(response);
  }

  /** DELETE /{collection}/{id}; the service answers 204 with no body. */
  async destroy(collection: string, id: string): Promise<void> {
    await this.#expectOk({ method: 'DELETE', path: resourcePath(collection, id) });
  }

  /**
   * PATCH /{collection}/_bulk?filter[..]=.. with `{data: {type, attributes}}`: one change to
   * every resource the filter selects (the real service takes filter[id] or filter[userId]).
   */
  async bulkUpdate(collection: string, filter: NonNullable<QueryParams['filter']>, type: string, attributes: Record<string, unknown>): Promise<Resource[]> {
    const path = pathWithQuery(`${collectionPath(collection)}/_bulk`, { filter });
    const response = await this.#expectOk({ method: 'PATCH', path, body: { data: { type, attributes } } });
    const doc = response.document;
    if (!doc || !Array.isArray(doc.data) || !doc.data.every(isRecord)) throw this.#invalid(response, 'a bulk answer without a data array of resource objects');
    return doc.data.map(toResource);
  }

  /** POST /{collection}/{id}/_{action}, e.g. a group invite's `accept`; answers the status (the body is a bare `{}`). */
  async act(collection: string, id: string, action: string): Promise<number> {
    if (!/^[a-z]+$/.test(action)) throw new MediaRequestError(`MediaClient.act: action ${JSON.stringify(action)} is not a word. Fix: pass e.g. "accept".`);
    return (await this.#expectOk({ method: 'POST', path: `${resourcePath(collection, id)}/_${action}` })).status;
  }

  // --- OAuth ------------------------------------------------------------------

  /**
   * Signs in (password grant) or refreshes (refresh grant) at {origin}/api/oauth/token,
   * form-encoded as OAuth 2 has it, and uses the new access token from then on.
   */
  async token(grant: OAuthGrant): Promise<OAuthToken> {
    const form = new URLSearchParams();
    if ('refreshToken' in grant) {
      form.set('grant_type', 'refresh_token');
      form.set('refresh_token', grant.refreshToken);
      this.#remember(grant.refreshToken);
    } else {
      form.set('grant_type', 'password');
      form.set('username', grant.username);
      form.set('password', grant.password);
      this.#remember(grant.password);
    }
    const sent = await this.#oauth(MEDIA_CONTRACT.oauthTokenPath, form);
    const body = this.#oauthBody(sent);
    if (!isRecord(body) || typeof body.access_token !== 'string' || body.access_token === '' || typeof body.token_type !== 'string') {
      throw new MediaInvalidResponseError({
        status: sent.response.status,
        method: sent.response.method,
        url: sent.response.url,
        what: 'a token answer without access_token and token_type',
        text: this.#redactText(sent.response.text),
      });
    }
    this.#remember(body.access_token);
    if (typeof body.refresh_token === 'string') this.#remember(body.refresh_token);
    this.#token = body.access_token;
    return body as unknown as OAuthToken;
  }

  /** Revokes a token at {origin}/api/oauth/revoke (default: the client's own, which it then stops sending). */
  async revoke(token: string | undefined = this.#token): Promise<void> {
    if (token === undefined || token === '') {
      throw new MediaRequestError('MediaClient.revoke: there is no token to revoke. Fix: sign in with client.token() first, or pass the token to revoke.');
    }
    this.#remember(token);
    const form = new URLSearchParams({ token });
    this.#oauthBody(await this.#oauth(MEDIA_CONTRACT.oauthRevokePath, form));
    if (token === this.#token) this.#token = undefined;
  }

  async #oauth(path: string, form: URLSearchParams): Promise<Sent<MediaResponse>> {
    if (this.#clientId !== undefined) form.set('client_id', this.#clientId);
    if (this.#clientSecret !== undefined) form.set('client_secret', this.#clientSecret);
    const url = new URL(path, this.#base.origin).href;
    return this.#send({ method: 'POST', url, rawBody: form.toString(), contentType: FORM, accept: 'application/json', auth: 'none' });
  }

  /** The parsed body of a 2xx OAuth answer ({} when empty); an OAuthError otherwise. */
  #oauthBody({ response, retries }: Sent<MediaResponse>): unknown {
    if (!isOk(response.status)) throw new OAuthError(this.#details(response, retries));
    if (response.text.trim() === '') return {};
    return response.json();
  }

  // --- Documents --------------------------------------------------------------

  #page(response: MediaResponse): CollectionPage {
    const doc = response.document;
    if (!doc || !Array.isArray(doc.data) || !doc.data.every(isRecord))
      throw this.#invalid(response, 'a collection document without a data array of resource objects');
    const links: CollectionPage['links'] = {};
    for (const name of COLLECTION_LINKS) {
      const value = doc.links?.[name];
      if (typeof value === 'string') links[name] = value;
    }
    return {
      data: doc.data.map(toResource),
      included: includedOf(doc),
      meta: isRecord(doc.meta) ? doc.meta : {},
      links,
      response,
    };
  }

  #single(response: MediaResponse): SingleDocument {
    const doc = response.document;
    if (!doc || !('data' in doc) || (doc.data !== null && !isRecord(doc.data))) {
      throw this.#invalid(response, 'a document without a single resource object (or null) as data');
    }
    const links = isRecord(doc.links)
      ? Object.fromEntries(Object.entries(doc.links).filter((e): e is [string, string] => typeof e[1] === 'string'))
      : undefined;
    return {
      data: doc.data === null || doc.data === undefined || Array.isArray(doc.data) ? null : toResource(doc.data),
      included: includedOf(doc),
      ...(isRecord(doc.meta) ? { meta: doc.meta } : {}),
      ...(links ? { links } : {}),
      response,
    };
  }

  #invalid(response: MediaResponse, what: string): MediaInvalidResponseError {
    return new MediaInvalidResponseError({ status: response.status, method: response.method, url: response.url, what, text: this.#redactText(response.text) });
  }

  // --- Plumbing ---------------------------------------------------------------

  async #expectOk(request: MediaRequest): Promise<MediaResponse> {
    const { response, retries } = await this.#send(request);
    if (!isOk(response.status)) throw apiErrorFor(this.#details(response, retries));
    return response;
  }

  #details(response: MediaResponse, retries: number): ApiErrorDetails {
    const retryAfter = response.headers['retry-after'];
    return {
      status: response.status,
      method: response.method,
      url: response.url,
      text: this.#redactText(response.text),
      retries,
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    };
  }

  #send(request: MediaRequest): Promise<Sent<MediaResponse>> {
    const prepared = buildRequest(request, { baseUrl: this.#base, token: this.#token, userAgent: this.#userAgent });
    for (const secret of prepared.secrets) this.#remember(secret);
    return this.#core.send(prepared, [...this.#secrets], request.retry !== false);
  }

  #remember(secret: string | undefined): void {
    if (secret !== undefined && secret !== '') this.#secrets.add(secret);
  }

  #redactText(text: string): string {
    return redactText(text, [...this.#secrets]);
  }

  #redactUrl(url: string): string {
    return redactUrl(url, [...this.#secrets]);
  }
}

function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A link made absolute against the base (the real service's links are absolute already); undefined when it is no URL. */
function resolvedUrl(link: string, base: URL): string | undefined {
  try {
    return new URL(link, base).href;
  } catch {
    return undefined;
  }
}

function includedOf(doc: JsonApiDocument): Resource[] {
  return Array.isArray(doc.included) ? doc.included.filter(isRecord).map(toResource) : [];
}

function relationshipOf(value: RelationshipInput): { data: unknown } {
  return isRecord(value) && 'data' in value ? value : { data: value };
}

/** A collection path under the base: `anime`, `trending/anime`, `anime/1/episodes`; slashes trimmed. */
function collectionPath(collection: string): string {
  return `/${collection.replace(/^\/+|\/+$/g, '')}`;
}

function resourcePath(collection: string, id: string): string {
  return `${collectionPath(collection)}/${encodeURIComponent(id)}`;
}

function pathWithQuery(path: string, params: QueryParams): string {
  const query = queryString(params);
  return query === '' ? path : `${path}?${query}`;
}

function baseUrlOf(value: string): URL {
  const fix = `pass the service's base ending with ${MEDIA_CONTRACT.edgePrefix}, e.g. http://127.0.0.1:4020${MEDIA_CONTRACT.edgePrefix}`;
  const url = httpBaseUrl(value, 'MediaClient', fix, (message) => new MediaConfigError(message));
  if (!url.pathname.replace(/\/+$/, '').endsWith(MEDIA_CONTRACT.edgePrefix)) {
    throw new MediaConfigError(`MediaClient: baseUrl ${JSON.stringify(redactUrl(url.href))} does not end with ${MEDIA_CONTRACT.edgePrefix}. Fix: ${fix}.`);
  }
  url.search = '';
  url.hash = '';
  return url;
}

/** An optional string option: absent is fine, blank is a mistake. */
function optional(name: string, value: string | undefined, fix: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new MediaConfigError(`MediaClient: option ${name} is empty. Fix: ${fix}.`);
  return value;
}
