/**
 * What a test created and did not delete, read from the exchanges it sent:
 * a 2xx answer to `POST {base}/{collection}` (or to a nested collection,
 * `POST {base}/{collection}/{id}/{sub}`: a product's images or variants) that carries the new record's id,
 * with no later DELETE of that record answered 2xx or 404. The fixtures
 * delete these after the test, so an assertion that fails between a create and
 * its `track()` (or the test's own DELETE) leaves nothing behind on a live
 * service.
 */
import type { Exchange } from '../http/Exchange.ts';

export interface Creation {
  /** The record's path under the base: `/products/12`. */
  readonly path: string;
  /** Position of the creating exchange among the test's exchanges. */
  readonly index: number;
}

export interface CreationRules {
  /** The API's base URL; only creates under it count. */
  readonly baseUrl: string;
  /** Collections whose creates count; every collection when undefined. */
  readonly collections?: readonly string[];
  /** The new record's id from the parsed answer body, or undefined when it holds none. */
  readonly idOf: (body: unknown) => string | number | undefined;
}

/** Every record the exchanges show created, oldest first. */
export function creationsIn(exchanges: readonly Exchange[], rules: CreationRules): Creation[] {
  const base = new URL(rules.baseUrl).pathname.replace(/\/+$/, '');
  const creations: Creation[] = [];
  exchanges.forEach((exchange, index) => {
    const { request, response } = exchange;
    if (request.method !== 'POST' || !response || response.status < 200 || response.status > 299) return;
    const collection = collectionOf(request.url, base);
    if (!collection || (rules.collections && !rules.collections.includes(collection.split('/')[0]!))) return;
    const id = rules.idOf(parsed(response.body));
    if (id !== undefined && id !== '') creations.push({ path: `/${collection}/${id}`, index });
  });
  return creations;
}

/** The creations no later DELETE removed (answered 2xx, or 404: already gone). */
export function leftoverCreations(exchanges: readonly Exchange[], rules: CreationRules): Creation[] {
  const base = new URL(rules.baseUrl).pathname.replace(/\/+$/, '');
  return creationsIn(exchanges, rules).filter(
    (creation) =>
      !exchanges.some(
        ({ request, response }, index) =>
          index > creation.index &&
          request.method === 'DELETE' &&
          pathUnder(request.url, base) === creation.path &&
          response !== undefined &&
          ((response.status >= 200 && response.status < 300) || response.status === 404),
      ),
  );
}

/**
 * The order to delete in: the newest creation first, so a record goes before
 * the one it hangs from. Creations at the same position keep the reverse of
 * the order they were given in (two records tracked after the same exchange).
 */
export function newestFirst(creations: readonly Creation[]): Creation[] {
  return [...creations].reverse().sort((a, b) => b.index - a.index);
}

/**
 * `products` for a POST to {base}/products, `products/5/images` for one to a nested collection
 * (an action such as `/groups/1/_read` has no `_` here: it creates no record); else undefined.
 */
function collectionOf(url: string, base: string): string | undefined {
  return /^\/([\w-]+(?:\/[\w-]+\/[a-z][\w-]*)?)$/.exec(pathUnder(url, base) ?? '')?.[1];
}

function pathUnder(url: string, base: string): string | undefined {
  const { pathname } = new URL(url);
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined;
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
