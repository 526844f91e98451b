/**
 * What the Store client takes and gives. Resource types hold only the fields
 * the harness uses; the suites check whole bodies against the JSON Schemas.
 */
import type { ClientOptions } from '../../http/ClientOptions.ts';
import type { ClientRequest } from '../../http/ClientRequest.ts';
import type { ClientResponse } from '../../http/ClientResponse.ts';
import type { ClientExchange as Exchange } from '../../http/Exchange.ts';
import type { LinkRel } from '../../rules/storeContract.ts';
import type { RetryOptions } from '../../http/RetryPolicy.ts';

/** How the client retries (the core's knobs, shared by both clients). */
export type { RetryOptions };

export interface StoreClientOptions extends ClientOptions {
  /** The store's base, already with /v1/{store_id}: `http://127.0.0.1:4010/v1/100001`. */
  baseUrl: string;
  token: string;
  /** App name and a URL or an email: `My app (https://example.com/contact)`. */
  userAgent: string;
  /** Pace requests to the documented bucket. Default true. */
  pace?: boolean;
}

/** How a request authenticates. */
export type StoreAuth = 'token' | 'none' | { header: string; value: string };

/** One request through the low-level door, `StoreClient.send`. */
export interface StoreRequest extends ClientRequest {
  /** Sent as JSON with Content-Type: application/json; charset=utf-8. */
  json?: unknown;
  /** Default 'token': `Authentication: bearer <token>`. */
  auth?: StoreAuth;
  /** Overrides the client's User-Agent; null omits the header. */
  userAgent?: string | null;
  /** A bodyless PUT sends Content-Length: 0 unless this is false. */
  contentLength0?: boolean;
  /** Wait for the pacer first. Default true (and the client's pace option). */
  pace?: boolean;
}

/** The rate headers of a response (store.ratelimit.headers), when present. */
export interface RateHeaders {
  /** X-Rate-Limit-Limit: the bucket size. */
  limit: number | undefined;
  /** X-Rate-Limit-Remaining: requests that still fit. */
  remaining: number | undefined;
  /** X-Rate-Limit-Reset: milliseconds until the bucket is empty. */
  reset: number | undefined;
}

export type Links = Partial<Record<LinkRel, string>>;

/** An answer as the store client hands it out: the rate headers, Link targets and X-Total-Count read. */
export interface StoreResponse extends ClientResponse {
  rate?: RateHeaders;
  links: Links;
  totalCount?: number;
}

/** One attempt as reports see it (the shape both clients report), with the time the pacer held it back (pacedMs). */
export type { Exchange };

export type ListParams = {
  page?: number;
  per_page?: number;
  since_id?: number | string;
  fields?: string;
  created_at_min?: string;
  updated_at_min?: string;
  [k: string]: string | number | undefined;
};

export interface Page<T> {
  items: T[];
  /** X-Total-Count; 0 for an empty collection answered with "Last page is 0". */
  totalCount: number | undefined;
  links: Links;
  response: StoreResponse;
}

/** A localized property: language code to text (store.localized.always-object). */
export type Localized = Record<string, string>;
/** On write a localized property takes an object per language or one string for all. */
export type LocalizedInput = string | Localized;

export interface StoreInfo {
  id: number | undefined;
  /** main_language, or the X-Main-Language header when the body lacks it. */
  mainLanguage: string;
  /** Language codes, whether the provider sends an array or an object keyed by code. */
  languages: string[];
}

export interface Product {
  id: number;
  name: Localized;
  description?: Localized;
  handle?: Localized;
  created_at?: string;
  updated_at?: string;
}

export interface ProductInput {
  name?: LocalizedInput;
  description?: LocalizedInput;
  handle?: LocalizedInput;
  [field: string]: unknown;
}

export interface Category {
  id: number;
  name: Localized;
  description: Localized;
  handle: Localized;
  /** Id of the parent, null at the top level (store.categories.parent-null-top-level). */
  parent: number | null;
  subcategories: number[];
  created_at: string;
  updated_at: string;
}

export interface CategoryInput {
  name?: LocalizedInput;
  description?: LocalizedInput;
  handle?: LocalizedInput;
  parent?: number | null;
  [field: string]: unknown;
}

export interface Webhook {
  id: number;
  event: string;
  url: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookInput {
  event: string;
  url: string;
}
