/**
 * The harness's side of the Pact Broker as the provider stand-in, over the
 * broker's HAL API (docs.pact.io, pact_broker's API docs), following links from
 * the index rather than building paths:
 *   `/` → pb:provider-pacts-for-verification (POST the selectors) → each pact;
 *   a pact's pb:publish-verification-results (POST the result);
 *   `/` → pb:pacticipant → pb:branch-version and pb:version-tag (PUT), for the provider version;
 *   `/` → pb:pacticipant → pb:version → pb:record-deployment named for the environment (POST).
 * Credentials go in the Authorization header only, never in a message.
 */
import type { Dispatcher } from 'undici';
import type { ConsumerVersionSelector } from './selectors.ts';

export interface BrokerCredentials {
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

interface Link {
  readonly href: string;
  readonly name?: string;
  readonly title?: string;
  readonly templated?: boolean;
}
interface HalDocument {
  readonly _links?: Record<string, Link | Link[] | undefined>;
  readonly _embedded?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** A pact the broker hands this provider to verify. */
export interface PactForVerification {
  readonly url: string;
  /** The broker's reason it was selected (e.g. "latest from main branch"). */
  readonly description: string;
  readonly pending: boolean;
}

/** What the broker answered that the client cannot use: names the request and the status, never a credential. */
export class BrokerError extends Error {
  override name = 'BrokerError';
}

export interface VerificationResult {
  readonly success: boolean;
  readonly providerApplicationVersion: string;
  readonly buildUrl?: string;
  readonly testResults: readonly {
    /** The broker's `_id` of the interaction, when the pact it served had one. */
    readonly interactionId?: string;
    readonly interactionDescription: string;
    readonly success: boolean;
    readonly mismatches?: readonly unknown[];
  }[];
  readonly verifiedBy: { readonly implementation: string; readonly version: string };
}

/** RFC 6570 level 1, as the broker's templated links use it: each `{name}` percent-encoded. */
export function expand(href: string, values: Record<string, string>): string {
  return href.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? encodeURIComponent(values[name]!) : whole));
}

/**
 * undici's request, as every other request of the harness: the global fetch would load Node's own copy of undici
 * beside it. Loaded with the first request, not with this module: pact-verify starts a nightly's lanes before it asks
 * the broker, and its own start is theirs to wait for. Redirects are followed, as fetch follows them.
 */
let transport: Promise<{ request: typeof import('undici').request; dispatcher: Dispatcher }> | undefined;
const brokerTransport = () =>
  (transport ??= import('undici').then(({ request, getGlobalDispatcher, interceptors }) => ({
    request,
    dispatcher: getGlobalDispatcher().compose(interceptors.redirect({ maxRedirections: 5 })),
  })));

export class BrokerClient {
  readonly #baseUrl: string;
  readonly #authorization: string | undefined;
  #index: HalDocument | undefined;

  constructor(baseUrl: string, credentials: BrokerCredentials) {
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
    this.#authorization = credentials.token
      ? `Bearer ${credentials.token}`
      : credentials.username !== undefined
        ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password ?? ''}`).toString('base64')}`
        : undefined;
  }

  async #request(method: string, url: string, body?: unknown): Promise<HalDocument> {
    const { request, dispatcher } = await brokerTransport();
    const response = await request(url, {
      method: method as Dispatcher.HttpMethod,
      dispatcher,
      headers: {
        accept: 'application/hal+json, application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.#authorization ? { authorization: this.#authorization } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).catch((error: unknown) => {
      throw new BrokerError(
        `The Pact Broker did not answer ${method} ${url} (${error instanceof Error ? error.message : String(error)}): check PACT_BROKER_BASE_URL.`,
      );
    });
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode > 299) {
      const hint = response.statusCode === 401 || response.statusCode === 403 ? ': check PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME/_PASSWORD)' : '';
      throw new BrokerError(`The Pact Broker answered ${method} ${url} with ${response.statusCode}${hint}. ${text.slice(0, 300)}`);
    }
    try {
      return (text ? JSON.parse(text) : {}) as HalDocument;
    } catch {
      throw new BrokerError(`The Pact Broker answered ${method} ${url} with something that is not JSON: is PACT_BROKER_BASE_URL a Pact Broker?`);
    }
  }

  /** The one link named `relation` (the one whose name is `name`, among several). */
  #link(document: HalDocument, relation: string, where: string, name?: string): Link {
    const found = document._links?.[relation];
    const link = Array.isArray(found) ? found.find((l) => name === undefined || l.name === name) : found;
    if (!link?.href) {
      throw new BrokerError(
        `The Pact Broker's ${where} has no "${relation}" link${name ? ` named "${name}"` : ''}: ${name ? `create the environment "${name}" in the broker, or ` : ''}check that it is a Pact Broker of version 2.82 or later.`,
      );
    }
    return link;
  }

  async index(): Promise<HalDocument> {
    this.#index ??= await this.#request('GET', `${this.#baseUrl}/`);
    return this.#index;
  }

  /** The pacts the broker has for `provider` under `selectors`; `providerVersionBranch` lets it work out pending pacts. */
  async pactsForVerification(provider: string, selectors: readonly ConsumerVersionSelector[], providerVersionBranch?: string): Promise<PactForVerification[]> {
    const link = this.#link(await this.index(), 'pb:provider-pacts-for-verification', 'index');
    const answer = await this.#request('POST', expand(link.href, { provider }), {
      consumerVersionSelectors: selectors,
      ...(providerVersionBranch ? { providerVersionBranch } : {}),
      includePendingStatus: false,
    });
    const pacts = (answer._embedded?.['pacts'] ?? []) as {
      shortDescription?: string;
      verificationProperties?: { pending?: boolean };
      _links?: { self?: Link };
    }[];
    return pacts.flatMap((pact) =>
      pact._links?.self?.href
        ? [{ url: pact._links.self.href, description: pact.shortDescription ?? '', pending: pact.verificationProperties?.pending === true }]
        : [],
    );
  }

  /** A pact as the broker serves it: the pact itself, with its `_links`. */
  fetchPact(url: string): Promise<HalDocument> {
    return this.#request('GET', url);
  }

  /** Publishes the result of verifying `pact` (as fetchPact gave it). */
  async publishResult(pact: HalDocument, result: VerificationResult): Promise<void> {
    await this.#request('POST', this.#link(pact, 'pb:publish-verification-results', 'pact').href, result);
  }

  async #pacticipant(name: string): Promise<HalDocument> {
    const link = this.#link(await this.index(), 'pb:pacticipant', 'index');
    return this.#request('GET', expand(link.href, { pacticipant: name }));
  }

  /** Puts `version` of `pacticipant` on `branch`, and tags it with each of `tags`. */
  async describeVersion(pacticipant: string, version: string, branch: string | undefined, tags: readonly string[]): Promise<void> {
    const document = await this.#pacticipant(pacticipant);
    if (branch) await this.#request('PUT', expand(this.#link(document, 'pb:branch-version', 'pacticipant').href, { branch, version }), {});
    for (const tag of tags) await this.#request('PUT', expand(this.#link(document, 'pb:version-tag', 'pacticipant').href, { version, tag }), {});
  }

  /** Records `version` of `pacticipant` as deployed to `environment` (which the broker must know), as `applicationInstance`. */
  async recordDeployment(pacticipant: string, version: string, environment: string, applicationInstance?: string): Promise<void> {
    const document = await this.#pacticipant(pacticipant);
    const versionDocument = await this.#request('GET', expand(this.#link(document, 'pb:version', 'pacticipant').href, { version }));
    const link = this.#link(versionDocument, 'pb:record-deployment', `version ${version} of ${pacticipant}`, environment);
    await this.#request('POST', link.href, applicationInstance ? { applicationInstance } : {});
  }
}
