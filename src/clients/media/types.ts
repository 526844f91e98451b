/**
 * What the Media client takes and gives: JSON:API documents as the Media
 * Tracking API sends them (../shared/specs/media-tracking-api.md, Resources and
 * Endpoints). Attributes stay an open record; the suites check bodies against
 * the JSON Schemas in contracts/media/schemas.
 */
import type { ClientOptions } from '../../http/ClientOptions.ts';
import type { ClientRequest } from '../../http/ClientRequest.ts';
import type { ClientResponse } from '../../http/ClientResponse.ts';
import type { ClientExchange as Exchange } from '../../http/Exchange.ts';
import type { RetryOptions } from '../../http/RetryPolicy.ts';

/** How the client retries (the core's knobs, shared by both clients). */
export type { RetryOptions };

export interface MediaClientOptions extends ClientOptions {
  /** Ends with /api/edge: `http://127.0.0.1:4020/api/edge`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; absent means anonymous. `token()` sets it. */
  token?: string;
  /** Default: the harness's own name. */
  userAgent?: string;
  /** OAuth client id sent with token and revoke requests, when the service wants one. */
  clientId?: string;
  /** OAuth client secret, for services that want one (the real password grant does not). */
  clientSecret?: string;
}

/** One request through the low-level door, `MediaClient.send`. */
export interface MediaRequest extends ClientRequest {
  /** Appended to the query; names as written (`page[limit]`), brackets percent-encoded. */
  query?: Record<string, string | number | undefined>;
  /** A JSON:API document, sent as application/vnd.api+json. */
  body?: unknown;
  /** Overrides Accept (default application/vnd.api+json); null omits it. */
  accept?: string | null;
  /** 'token' (default): the client's token, if it has one; 'none': anonymous; any other string: that token. */
  auth?: 'token' | 'none' | string;
}

/** An answer as the media client hands it out: a JSON object body kept as the document. */
export interface MediaResponse extends ClientResponse {
  /** The body, when it is a JSON object (whatever the Content-Type said). */
  document?: JsonApiDocument;
}

/** One attempt as reports see it (the shape both clients report; pacedMs is 0, nothing paces the media client). */
export type { Exchange };

// --- JSON:API ----------------------------------------------------------------

export interface ResourceIdentifier {
  id: string;
  type: string;
  meta?: Record<string, unknown>;
}

/** A relationship's data: to-one identifier or null, to-many array. */
export type ResourceLinkage = ResourceIdentifier | ResourceIdentifier[] | null;

export interface Relationship {
  /** A link that does not exist may be null (JSON:API 1.1, Links). */
  links?: { self?: string | null; related?: string | null };
  /** Present only when the relationship was included (field notes: Media type, keys, ids). */
  data?: ResourceLinkage;
  meta?: Record<string, unknown>;
}

/** A resource object as it arrives: attributes and relationships may be missing. */
export interface ResourceObject {
  id: string;
  type: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, Relationship>;
  links?: { self?: string | null };
  meta?: Record<string, unknown>;
}

/** A resource object as the client hands it out: attributes and relationships always objects. */
export interface Resource extends ResourceObject {
  attributes: Record<string, unknown>;
  relationships: Record<string, Relationship>;
}

/** A JSON:API error object; `status` is an integer in the real service's custom controllers. */
export interface JsonApiError {
  id?: string;
  status?: string | number;
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string; header?: string };
  meta?: Record<string, unknown>;
}

export type CollectionLinkName = 'first' | 'prev' | 'next' | 'last' | 'self';

export interface JsonApiDocument {
  data?: ResourceObject | ResourceObject[] | null;
  errors?: JsonApiError[];
  meta?: Record<string, unknown>;
  links?: Record<string, string | null | undefined>;
  included?: ResourceObject[];
  jsonapi?: Record<string, unknown>;
}

// --- Typed helpers -----------------------------------------------------------

/** include, sparse fieldsets, filters, sort and offset pages (field notes: Filters, sort, include, fields; Pagination). */
export interface QueryParams {
  /** Relationship paths: `['categories', 'mediaRelationships.destination']`. */
  include?: string[];
  /** Type to attribute names: `{ anime: ['slug', 'titles'] }`. */
  fields?: Record<string, string[]>;
  /** Filter name to a value or a list (sent comma-separated). */
  filter?: Record<string, string | number | (string | number)[]>;
  /** Sort keys, `-` for descending: `['-averageRating', 'startDate']`. */
  sort?: string[];
  page?: { limit?: number; offset?: number; cursor?: string };
}

export interface CollectionPage {
  data: Resource[];
  included: Resource[];
  meta: Record<string, unknown> & { count?: number };
  links: Partial<Record<CollectionLinkName, string>>;
  response: MediaResponse;
}

export interface SingleDocument {
  data: Resource | null;
  included: Resource[];
  meta?: Record<string, unknown>;
  links?: Record<string, string>;
  response: MediaResponse;
}

/** A relationship value for create: a linkage, or `{ data: linkage }` as JSON:API writes it. */
export type RelationshipInput = ResourceLinkage | { data: ResourceLinkage };

// --- OAuth -------------------------------------------------------------------

/** Password grant (sign in) or refresh grant. */
export type OAuthGrant = { username: string; password: string } | { refreshToken: string };

/** The token endpoint's answer (field notes: Authentication), as sent: snake_case. */
export interface OAuthToken {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  created_at?: number;
}
