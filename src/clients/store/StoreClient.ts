/**
 * The typed client of the Store Commerce API (../shared/specs/store-commerce-api.md).
 *
 * `send` is the low-level door the suites use to observe the provider: it
 * never throws for an HTTP status. The resource methods on top of it throw
 * typed errors (errors.ts) and follow Link headers for whole collections.
 * Every request goes through the core's stack (src/http/ClientCore.ts): retried
 * by StoreRetryPolicy, each attempt paced to the documented bucket (Pacer, the
 * pacing interceptor's gate) and passed through the live guards, and reported
 * to `onExchange` with its secrets redacted. This file holds only the store's
 * vocabulary.
 */
import { systemClock } from '../../clock/Clock.ts';
import { bodyOf } from '../../http/ClientError.ts';
import { httpBaseUrl } from '../../http/httpBaseUrl.ts';
import { redactText, redactUrl } from '../../http/redact.ts';
import { ClientCore, type Sent } from '../../http/ClientCore.ts';
import type { AttemptGate } from '../../http/interceptors/pacing.ts';
import { buildRequest } from './buildRequest.ts';
import { apiErrorFor, StoreConfigError, StoreInvalidResponseError, StoreTransportError, type StoreApiError } from './errors.ts';
import { Pacer, type PacerTicket } from './Pacer.ts';
import { rateHeaders } from './rateHeaders.ts';
import { StoreRetryPolicy } from './StoreRetryPolicy.ts';
import { toStoreInfo } from './toStoreInfo.ts';
import { toStoreResponse } from './toStoreResponse.ts';
import type {
  Category,
  CategoryInput,
  ListParams,
  Page,
  Product,
  ProductInput,
  StoreClientOptions,
  StoreInfo,
  StoreRequest,
  StoreResponse,
  Webhook,
  WebhookInput,
} from './types.ts';

/** "Last page is N": the provider's answer past the last page (store.pagination.past-last-page-404). */
const LAST_PAGE = /^Last page is (\d+)$/;

export class StoreClient {
  /** The store's base URL, /v1/{store_id} included, without a trailing slash. */
  readonly baseUrl: string;
  readonly #base: URL;
  readonly #token: string;
  readonly #userAgent: string;
  readonly #pace: boolean;
  readonly #core: ClientCore<StoreResponse, PacerTicket>;
  readonly #secrets: string[];
  readonly #pacer: Pacer;

  constructor(options: StoreClientOptions) {
    this.#base = baseUrlOf(options.baseUrl);
    this.baseUrl = this.#base.href.replace(/\/+$/, '');
    this.#token = required('token', options.token, 'pass the access token the store owner granted the app');
    this.#userAgent = required('userAgent', options.userAgent, 'pass the app name and a contact, e.g. "My app (https://example.com/contact)"');
    this.#pace = options.pace ?? true;
    // One model of the store's bucket per client, but what a 429 shows of it is the store's: every client of it learns (Pacer).
    this.#pacer = new Pacer(options.clock ?? systemClock, { store: this.baseUrl });
    this.#core = new ClientCore(options, {
      policy: new StoreRetryPolicy(options.retry),
      gate: pacerGate(this.#pacer),
      read: toStoreResponse,
      noAnswer: (failure) => new StoreTransportError(failure),
    });
    this.#secrets = [this.#token, ...(options.secrets ?? [])].filter((s) => s.length > 0);
  }

  /**
   * Sends one request and answers whatever the provider said, after pacing and
   * the retries StoreRetryPolicy allows (with `retry: false` none, but for a 429 the pacer's trust in lying rate
   * headers brought on: see #send). Throws only when no answer came
   * (StoreTransportError) or the request itself is unusable (StoreRequestError).
   */
  async send(request: StoreRequest): Promise<StoreResponse> {
    return (await this.#send(request)).response;
  }

  /**
   * Waits until the store's bucket, as this client last saw it, has room for
   * `requests` sent by someone else on the same token (Pact's Verifier), so
   * they are not refused for the rate (see Pacer.waitForRoom).
   */
  waitForRoom(requests = 1, whenUnknown: 'wait' | 'go' = 'wait'): Promise<void> {
    return this.#pacer.waitForRoom(requests, whenUnknown);
  }

  /**
   * For one request someone else sends on this token (Pact's Verifier): waits for
   * room as for `waitForRoom`, then holds its place in the modelled bucket until
   * the returned function is called, once that request has its answer: given the
   * answer, the model syncs from its rate headers as from this client's own. The
   * requests this client sends afterwards are paced with it counted.
   */
  async holdRoom(): Promise<(answer?: { status: number; headers: Readonly<Record<string, string | string[] | number | undefined>> }) => void> {
    await this.#pacer.waitForRoom(1);
    const ticket = this.#pacer.track();
    return (answer) => {
      const headers = Object.fromEntries(Object.entries(answer?.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value ?? '')]));
      this.#pacer.release(ticket, answer ? rateHeaders(headers) : undefined, answer?.status === 429);
    };
  }

  // --- Store ------------------------------------------------------------------

  /** GET /store, languages normalised to codes. */
  async getStore(): Promise<StoreInfo> {
    const response = await this.#expectOk({ method: 'GET', path: '/store' });
    return toStoreInfo(this.#jsonOf(response), response.headers['x-main-language']);
  }

  // --- Products ---------------------------------------------------------------

  listProducts(params: ListParams = {}): Promise<Page<Product>> {
    return this.#list<Product>('/products', params);
  }

  iterateProducts(params: ListParams = {}): AsyncIterable<Product> {
    return this.#iterate<Product>('/products', params);
  }

  getProduct(id: number | string): Promise<Product> {
    return this.#resource<Product>({ method: 'GET', path: `/products/${segment(id)}` });
  }

  createProduct(input: ProductInput): Promise<Product> {
    return this.#resource<Product>({ method: 'POST', path: '/products', json: input });
  }

  updateProduct(id: number | string, input: ProductInput): Promise<Product> {
    return this.#resource<Product>({ method: 'PUT', path: `/products/${segment(id)}`, json: input });
  }

  async deleteProduct(id: number | string): Promise<void> {
    await this.#expectOk({ method: 'DELETE', path: `/products/${segment(id)}` });
  }

  // --- Categories -------------------------------------------------------------

  listCategories(params: ListParams = {}): Promise<Page<Category>> {
    return this.#list<Category>('/categories', params);
  }

  iterateCategories(params: ListParams = {}): AsyncIterable<Category> {
    return this.#iterate<Category>('/categories', params);
  }

  getCategory(id: number | string): Promise<Category> {
    return this.#resource<Category>({ method: 'GET', path: `/categories/${segment(id)}` });
  }

  createCategory(input: CategoryInput): Promise<Category> {
    return this.#resource<Category>({ method: 'POST', path: '/categories', json: input });
  }

  updateCategory(id: number | string, input: CategoryInput): Promise<Category> {
    return this.#resource<Category>({ method: 'PUT', path: `/categories/${segment(id)}`, json: input });
  }

  async deleteCategory(id: number | string): Promise<void> {
    await this.#expectOk({ method: 'DELETE', path: `/categories/${segment(id)}` });
  }

  // --- Webhooks ---------------------------------------------------------------

  /** Every registered webhook, following Link next if the provider pages them. */
  async listWebhooks(): Promise<Webhook[]> {
    const all: Webhook[] = [];
    for await (const webhook of this.#iterate<Webhook>('/webhooks', {})) all.push(webhook);
    return all;
  }

  createWebhook(input: WebhookInput): Promise<Webhook> {
    return this.#resource<Webhook>({ method: 'POST', path: '/webhooks', json: { event: input.event, url: input.url } });
  }

  async deleteWebhook(id: number | string): Promise<void> {
    await this.#expectOk({ method: 'DELETE', path: `/webhooks/${segment(id)}` });
  }

  // --- Collections ------------------------------------------------------------

  async #list<T>(path: string, params: ListParams): Promise<Page<T>> {
    const sent = await this.#send({ method: 'GET', path, query: params });
    const { response } = sent;
    // Observed on the real service: an empty collection answers page 1 with 404 "Last page is 0".
    if (response.status === 404 && lastPageOf(response) === 0 && isFirstPage(params.page)) {
      return { items: [], totalCount: 0, links: {}, response };
    }
    if (!isOk(response.status)) throw this.#errorFor(sent);
    return { items: this.#arrayOf<T>(response), totalCount: response.totalCount, links: response.links, response };
  }

  /** Every item of a collection, page after page through Link next only (store.pagination.follow-links). */
  async *#iterate<T>(path: string, params: ListParams): AsyncGenerator<T> {
    const first = await this.#list<T>(path, params);
    yield* first.items;
    const visited = new Set<string>();
    let next = first.links.next;
    while (next !== undefined) {
      if (visited.has(next)) {
        throw new StoreInvalidResponseError({
          status: 200,
          method: 'GET',
          url: redactUrl(next, this.#secrets),
          what: 'a Link next that points back to a page already read',
          text: '',
        });
      }
      visited.add(next);
      // The token goes only to this store: a same-host Link to another store id (or version) is not followed with it;
      // one to another host is refused when the request is built (buildRequest).
      if (!withinBase(next, this.#base)) {
        throw new StoreInvalidResponseError({
          status: 200,
          method: 'GET',
          url: redactUrl(next, this.#secrets),
          what: `a Link next outside this store's base ${this.baseUrl}, not followed with the store's token`,
          text: '',
        });
      }
      const sent = await this.#send({ method: 'GET', url: next });
      // The collection shrank while we read it: the page we were sent to is gone.
      if (sent.response.status === 404 && lastPageOf(sent.response) !== undefined) return;
      if (!isOk(sent.response.status)) throw this.#errorFor(sent);
      yield* this.#arrayOf<T>(sent.response);
      next = sent.response.links.next;
    }
  }

  // --- Plumbing ---------------------------------------------------------------

  async #resource<T>(request: StoreRequest): Promise<T> {
    const response = await this.#expectOk(request);
    return this.#jsonOf(response) as T;
  }

  async #expectOk(request: StoreRequest): Promise<StoreResponse> {
    const sent = await this.#send(request);
    if (!isOk(sent.response.status)) throw this.#errorFor(sent);
    return sent.response;
  }

  #jsonOf(response: StoreResponse): unknown {
    return response.json();
  }

  #arrayOf<T>(response: StoreResponse): T[] {
    const body = response.json();
    if (!Array.isArray(body)) {
      throw new StoreInvalidResponseError({
        status: response.status,
        method: response.method,
        url: response.url,
        what: 'a collection body that is not a JSON array (store.pagination.collection-is-array)',
        text: redactText(response.text, this.#secrets),
      });
    }
    return body as T[];
  }

  #errorFor({ response, retries }: Sent<StoreResponse>): StoreApiError {
    return apiErrorFor({
      status: response.status,
      method: response.method,
      url: response.url,
      body: bodyOf(redactText(response.text, this.#secrets)),
      retries,
      ...(response.rate ? { rate: response.rate } : {}),
    });
  }

  async #send(request: StoreRequest): Promise<Sent<StoreResponse>> {
    const prepared = buildRequest(request, { baseUrl: this.#base, token: this.#token, userAgent: this.#userAgent });
    const pace = this.#pace && request.pace !== false;
    const secrets = [...this.#secrets, ...prepared.secrets];
    const retrying = request.retry !== false;
    const believedHeaders = pace && !retrying && !this.#pacer.distrustsHeaders;
    const sent = await this.#core.send({ ...prepared, pace }, secrets, retrying);
    // retry: false answers what the provider said, but not the pacer's own mistake: a 429 to a paced request the pacer
    // let go by rate headers that this 429 showed to lie (Pacer) is sent once more, when the contract's bucket has room.
    if (believedHeaders && sent.response.status === 429 && this.#pacer.distrustsHeaders) return this.#core.send({ ...prepared, pace }, secrets, false);
    return sent;
  }
}

/**
 * The pacer as the gate of every attempt: a paced one waits for room in the modelled bucket, an unpaced one
 * still fills it; each answer's rate headers bring the model up to date, and one without an answer is counted too.
 */
function pacerGate(pacer: Pacer): AttemptGate<PacerTicket> {
  return {
    enter: async (hold) => (hold ? pacer.acquire() : pacer.track()),
    leave: (ticket, answer) => pacer.release(ticket, answer && rateHeaders(answer.headers), answer?.status === 429),
  };
}

function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

function isFirstPage(page: string | number | undefined): boolean {
  return page === undefined || Number(page) === 1;
}

/** N of a 404 "Last page is N", else undefined. */
function lastPageOf(response: StoreResponse): number | undefined {
  if (response.status !== 404) return undefined;
  try {
    const description = response.json<{ description?: unknown } | null>()?.description;
    const match = typeof description === 'string' ? LAST_PAGE.exec(description) : null;
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function segment(id: number | string): string {
  return encodeURIComponent(String(id));
}

/** Whether a same-origin `url` is under `base` (this store, this version); another origin is buildRequest's to refuse. */
function withinBase(url: string, base: URL): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const basePath = base.pathname.replace(/\/+$/, '');
  return target.origin !== base.origin || target.pathname === basePath || target.pathname.startsWith(`${basePath}/`);
}

function baseUrlOf(value: string): URL {
  const fix = "pass the store's base with version and store id, e.g. http://127.0.0.1:4010/v1/100001";
  return httpBaseUrl(value, 'StoreClient', fix, (message) => new StoreConfigError(message));
}

function required(name: string, value: unknown, fix: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new StoreConfigError(`StoreClient: option ${name} is missing or empty. Fix: ${fix}.`);
  return value;
}
