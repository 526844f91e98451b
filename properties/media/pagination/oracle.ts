/**
 * What the media pagination properties hold a provider to (media.pagination.*):
 * the collection read whole as the reference, where each page's window falls,
 * the links first/prev/next/last, a walk through links.next, and the 400 for a
 * limit the collection does not take.
 */
import type { MediaClient } from '../../../src/clients/media/MediaClient.ts';
import type { JsonApiDocument, MediaRequest, MediaResponse } from '../../../src/clients/media/types.ts';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import type { RequestBudget } from '../../support/liveBudget.ts';
import { broken } from '../../../src/testing/ruleTest.ts';
import type { RuleId } from '../../../src/rules/catalogues.ts';
import { type MediaArena, type PagedCollection } from '../../support/mediaArena.ts';
import { type PagingCase } from './arbitraries.ts';

/** The walk ran out of live budget: the case stops, with what it saw checked. */
class OutOfBudget extends Error {}

export const OFFSET = 'media.pagination.offset';

export const META_COUNT = 'media.pagination.meta-count';

const LINKS = 'media.pagination.links';

export const FOLLOW_NEXT = 'media.pagination.follow-next';

const LIMIT_BOUNDS = 'media.pagination.limit-bounds-400';

export const PAGINATION_RULES = [OFFSET, META_COUNT, LINKS, FOLLOW_NEXT, LIMIT_BOUNDS] as const;

// --- Generated cases ------------------------------------------------------------

interface Resolved {
  /** What page[limit] is sent as; undefined: not sent. */
  readonly limit: number | undefined;
  /** What page[offset] is sent as; undefined: not sent. */
  readonly offset: number | undefined;
  /** The answer the field notes promise: a window (Infinity: no limit), or 400 Invalid page value. */
  readonly expect: { readonly window: { readonly limit: number; readonly offset: number } } | { readonly invalid: 'zero' | 'over' };
}

/** What a generated case sends and the answer it must get. One switch per parameter, each case a line of the field notes: kept in one place to read against them. */
export function resolve(collection: PagedCollection, c: PagingCase, count: number): Resolved {
  const max = collection.maxLimit;
  const cap = max ?? MEDIA_CONTRACT.maxLimit;
  let limit: number | undefined;
  switch (c.limit.kind) {
    case 'absent':
      limit = undefined;
      break;
    case 'small':
    case 'within':
      limit = Math.min(c.limit.n, cap);
      break;
    case 'max':
      limit = max ?? count + 1;
      break;
    case 'over':
      // Over the maximum; an unpaginated collection has none, so it serves the window.
      limit = cap + c.limit.by;
      break;
    case 'zero':
      limit = 0;
      break;
  }
  let offset: number | undefined;
  switch (c.offset.kind) {
    case 'absent':
      offset = undefined;
      break;
    case 'at':
      offset = c.offset.n;
      break;
    case 'inside':
      // Somewhere in the collection, whatever its size (0 when it is empty).
      offset = count === 0 ? 0 : c.offset.k % count;
      break;
    case 'fromEnd':
      offset = Math.max(count - c.offset.back, 0);
      break;
    case 'past':
      offset = count + c.offset.by;
      break;
  }
  if (limit === 0) return { limit, offset, expect: { invalid: 'zero' } };
  if (max !== undefined && limit !== undefined && limit > max) return { limit, offset, expect: { invalid: 'over' } };
  const defaultLimit = max === undefined ? Infinity : MEDIA_CONTRACT.defaultLimit;
  return { limit, offset, expect: { window: { limit: limit ?? defaultLimit, offset: offset ?? 0 } } };
}

// --- Requests -------------------------------------------------------------------

interface Page {
  readonly url: string;
  readonly response: MediaResponse;
  readonly doc: JsonApiDocument;
  readonly ids: readonly string[];
}

async function get(client: MediaClient, budget: RequestBudget | undefined, request: Omit<MediaRequest, 'method' | 'retry'>): Promise<MediaResponse> {
  if (budget && !budget.take(1)) throw new OutOfBudget();
  return client.send({ method: 'GET', retry: false, ...request });
}

function errorText(response: MediaResponse): string {
  const errors = response.document?.errors;
  const first = Array.isArray(errors) ? errors[0] : undefined;
  return first ? ` (${[first.title, first.detail].filter(Boolean).join(': ')})` : '';
}

/** A 200 collection document, or a failure of `rule` naming the request. */
export function pageOf(response: MediaResponse, rule: RuleId, what: string): Page {
  if (response.status !== 200) broken(rule, `${what}: GET ${response.url} answered ${response.status}${errorText(response)}, expected 200 with a collection.`);
  const doc = response.document;
  if (!doc || !Array.isArray(doc.data)) broken(rule, `${what}: GET ${response.url} answered 200 without a data array.`);
  const ids = doc.data.map((resource) => `${resource.type}/${resource.id}`);
  return { url: response.url, response, doc, ids };
}

export function countOf(page: Page, what: string): number {
  const count = page.doc.meta?.['count'];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
    broken(META_COUNT, `${what}: GET ${page.url} has meta.count ${JSON.stringify(count)}, expected the collection's size as a whole number.`);
  }
  return count;
}

export function requestOf(collection: PagedCollection, limit: number | undefined, offset: number | undefined): Omit<MediaRequest, 'method' | 'retry'> {
  return { path: collection.path, query: { ...collection.params, 'page[limit]': limit, 'page[offset]': offset } };
}

export function describeRequest(collection: PagedCollection, limit: number | undefined, offset: number | undefined): string {
  const page = [limit !== undefined ? `page[limit]=${limit}` : '', offset !== undefined ? `page[offset]=${offset}` : ''].filter(Boolean).join('&');
  return `${collection.label}${page ? `${collection.label.includes('?') ? '&' : '?'}${page}` : ''}`;
}

/**
 * The collection read whole: one request for an unpaginated collection, else
 * links.next from offset 0 at the largest limit. undefined when the live
 * budget could not pay for it.
 */
export async function readReference(
  client: MediaClient,
  budget: RequestBudget | undefined,
  collection: PagedCollection,
): Promise<readonly string[] | undefined> {
  try {
    const what = `reading ${collection.label} whole for the reference`;
    const first = pageOf(await get(client, budget, requestOf(collection, collection.maxLimit, undefined)), OFFSET, what);
    const count = countOf(first, what);
    const ids = [...first.ids];
    let page = first;
    for (let pages = 1; typeof page.doc.links?.['next'] === 'string'; pages++) {
      if (pages > count + 1) broken(FOLLOW_NEXT, `${what}: links.next is still there after ${pages} pages of ${collection.maxLimit} for meta.count ${count}.`);
      page = pageOf(await get(client, budget, { url: page.doc.links['next'] }), FOLLOW_NEXT, `${what}, following links.next`);
      const again = countOf(page, what);
      if (again !== count)
        broken(META_COUNT, `${what}: meta.count is ${again} at ${page.url}, ${count} on the first page; nothing changed the collection in between.`);
      ids.push(...page.ids);
    }
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (repeated.length > 0) broken(FOLLOW_NEXT, `${what}: following links.next from offset 0 visited ${[...new Set(repeated)].join(', ')} twice.`);
    if (ids.length !== count) {
      broken(
        FOLLOW_NEXT,
        `${what}: following links.next from offset 0 at page[limit]=${collection.maxLimit ?? '(none)'} visited ${ids.length} items, meta.count says ${count}.`,
      );
    }
    return ids;
  } catch (error) {
    if (error instanceof OutOfBudget) return undefined;
    throw error;
  }
}

// --- Links ----------------------------------------------------------------------

const RELS = ['first', 'prev', 'next', 'last'] as const;

type Rel = (typeof RELS)[number];

interface LinkExpectation {
  readonly arena: MediaArena;
  readonly collection: PagedCollection;
  /** undefined: an unpaginated collection read without page parameters. */
  readonly window: { readonly limit: number; readonly offset: number } | undefined;
  readonly count: number;
  readonly what: string;
}

function linkOffset(url: URL): number | undefined {
  const raw = url.searchParams.get('page[offset]');
  return raw === null ? undefined : Number(raw);
}

/**
 * links of one answer against the field notes (every target) and the twin's documented choices (twin only).
 * One rel after another in one function: each check reads the window and the others' URLs, and its message names the page.
 */
function checkLinks(page: Page, e: LinkExpectation): Record<Rel, URL | undefined> {
  const links = page.doc.links;
  const where = `${e.what} (GET ${page.url}, meta.count ${e.count})`;
  if (!links || typeof links !== 'object') broken(LINKS, `${where}: no links object; a collection always carries links first and last.`);
  const twin = e.arena.kind === 'twin';
  const base = new URL(e.arena.apiUrl);
  const path = `${base.pathname.replace(/\/+$/, '')}${e.collection.path}`;
  const parsed = {} as Record<Rel, URL | undefined>;
  for (const rel of RELS) {
    const raw = links[rel];
    if (raw === undefined || raw === null) continue;
    let url: URL | undefined;
    try {
      url = typeof raw === 'string' ? new URL(raw) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) broken(LINKS, `${where}: links.${rel} is ${JSON.stringify(raw)}, not a full URL.`);
    if (url.pathname !== path) broken(LINKS, `${where}: links.${rel} is ${raw}, whose path is not the collection's ${path}.`);
    if (twin && url.origin !== base.origin) broken(LINKS, `${where}: links.${rel} is ${raw}, not on the request's origin ${base.origin}.`);
    for (const [name, value] of Object.entries(e.collection.params)) {
      if (url.searchParams.get(name) !== value) broken(LINKS, `${where}: links.${rel} is ${raw}; it must echo ${name}=${value}.`);
    }
    if (twin) {
      // Rails' to_query: CGI-escaped pairs (brackets as %5B %5D), sorted.
      const pairs = url.search.replace(/^\?/, '').split('&').filter(Boolean);
      if (/[[\]]/.test(url.search)) broken(LINKS, `${where}: links.${rel} is ${raw}; the twin percent-encodes brackets (%5B, %5D) as the fixtures do.`);
      if (pairs.join('&') !== [...pairs].sort().join('&'))
        broken(LINKS, `${where}: links.${rel} is ${raw}; the twin sorts the query's pairs as Rails' to_query does.`);
    }
    parsed[rel] = url;
  }
  if (!parsed.first) broken(LINKS, `${where}: links.first is missing; a collection always links its first page.`);
  if (!parsed.last) broken(LINKS, `${where}: links.last is missing; a collection always links its last page.`);

  if (e.window === undefined) {
    // Everything at once: nothing before or after.
    if (parsed.prev || parsed.next) broken(LINKS, `${where}: links.${parsed.prev ? 'prev' : 'next'} is present, but the answer holds the whole collection.`);
    if (twin) {
      for (const rel of ['first', 'last'] as const) {
        if (parsed[rel]!.searchParams.has('page[limit]') || parsed[rel]!.searchParams.has('page[offset]')) {
          broken(LINKS, `${where}: links.${rel} is ${parsed[rel]!.href}; unpaginated, the twin links the collection URL with the client's parameters only.`);
        }
      }
    }
    return parsed;
  }

  const { limit, offset } = e.window;
  const finite = Number.isFinite(limit);
  for (const rel of RELS) {
    const url = parsed[rel];
    if (!url) continue;
    const sentLimit = url.searchParams.get('page[limit]');
    if (finite && sentLimit !== String(limit)) broken(LINKS, `${where}: links.${rel} is ${url.href}; it must keep page[limit]=${limit}.`);
    // The twin writes page[offset] always, and page[limit] whenever the window has one (an offset alone on an unpaginated collection has none).
    if (twin && ((finite && sentLimit === null) || (!finite && sentLimit !== null) || !url.searchParams.has('page[offset]'))) {
      broken(LINKS, `${where}: links.${rel} is ${url.href}; the twin writes page[offset] always and page[limit] exactly when the window has a limit.`);
    }
  }
  const at = (rel: Rel): number => linkOffset(parsed[rel]!) ?? 0;
  if (at('first') !== 0) broken(LINKS, `${where}: links.first is at offset ${at('first')}, expected 0.`);
  const lastOffset = finite ? Math.max(e.count - limit, 0) : 0;
  if (at('last') !== lastOffset) {
    broken(LINKS, `${where}: links.last is at offset ${at('last')}, expected max(count − limit, 0) = ${lastOffset} (not aligned to pages).`);
  }
  if (offset > 0 && !parsed.prev) broken(LINKS, `${where}: links.prev is missing at offset ${offset} > 0.`);
  if (offset === 0 && parsed.prev) broken(LINKS, `${where}: links.prev is present at offset 0.`);
  if (parsed.prev) {
    const prev = at('prev');
    if (twin && prev !== Math.max(offset - limit, 0))
      broken(LINKS, `${where}: links.prev is at offset ${prev}; the twin steps back by the limit to ${Math.max(offset - limit, 0)}.`);
    if (!(prev >= 0 && prev < offset)) broken(LINKS, `${where}: links.prev is at offset ${prev}, not before offset ${offset}.`);
  }
  const hasNext = offset + limit < e.count;
  if (hasNext && !parsed.next) broken(LINKS, `${where}: links.next is missing though offset + limit (${offset + limit}) < count.`);
  if (!hasNext && parsed.next) broken(LINKS, `${where}: links.next is present though offset + limit (${offset + limit}) ≥ count.`);
  if (parsed.next && at('next') !== offset + limit)
    broken(LINKS, `${where}: links.next is at offset ${at('next')}, expected offset + limit = ${offset + limit}.`);
  return parsed;
}

// --- The walk -------------------------------------------------------------------

interface WalkResult {
  readonly pages: readonly { readonly offset: number; readonly ids: readonly string[] }[];
  /** False when the live budget stopped it. */
  readonly complete: boolean;
}

export async function walk(
  arena: MediaArena,
  client: MediaClient,
  budget: RequestBudget | undefined,
  collection: PagedCollection,
  resolved: Resolved,
  window: { readonly limit: number; readonly offset: number },
  count: number,
): Promise<WalkResult> {
  const asked = describeRequest(collection, resolved.limit, resolved.offset);
  const unwindowed = collection.maxLimit === undefined && resolved.limit === undefined && resolved.offset === undefined;
  const { limit, offset } = window;
  const pages: { offset: number; ids: readonly string[] }[] = [];
  try {
    let page = pageOf(await get(client, budget, requestOf(collection, resolved.limit, resolved.offset)), OFFSET, `GET ${asked}`);
    for (let k = 0; ; k++) {
      const at = k === 0 ? offset : offset + k * limit;
      const what = k === 0 ? `GET ${asked}` : `page ${k + 1} of the walk from ${asked} (offset ${at}, reached through links.next)`;
      const seen = countOf(page, what);
      if (seen !== count)
        broken(META_COUNT, `${what}: meta.count is ${seen} at ${page.url}; the collection has ${count} (read whole), and nothing changed it.`);
      const links = checkLinks(page, { arena, collection, window: unwindowed ? undefined : { limit, offset: at }, count, what });
      pages.push({ offset: at, ids: page.ids });
      if (!links.next) break;
      if (k > count + 1) broken(FOLLOW_NEXT, `the walk from ${asked} still has links.next after ${k + 1} pages for ${count} items.`);
      page = pageOf(await get(client, budget, { url: String(page.doc.links?.['next']) }), FOLLOW_NEXT, `following links.next of page ${k + 1} from ${asked}`);
    }
    return { pages, complete: true };
  } catch (error) {
    if (error instanceof OutOfBudget) return { pages, complete: false };
    throw error;
  }
}

function listed(ids: readonly string[]): string {
  return ids.length === 0 ? '(none)' : ids.length > 12 ? `${ids.slice(0, 12).join(', ')}, … (${ids.length})` : ids.join(', ');
}

/** The walk against the reference: first the items it visits (follow-next), then each page's window (offset). */
export function checkWalk(asked: string, result: WalkResult, reference: readonly string[], window: { limit: number; offset: number }): void {
  const visited = result.pages.flatMap((p) => p.ids);
  const expected = reference.slice(window.offset);
  const repeated = visited.filter((id, i) => visited.indexOf(id) !== i);
  if (repeated.length > 0) broken(FOLLOW_NEXT, `following links.next from ${asked} visited ${listed([...new Set(repeated)])} more than once.`);
  const compared = result.complete ? expected : expected.slice(0, visited.length);
  const differs = visited.length !== compared.length || visited.some((id, i) => id !== compared[i]);
  if (differs) {
    const at = visited.findIndex((id, i) => id !== compared[i]);
    const first = at === -1 ? Math.min(visited.length, compared.length) : at;
    broken(
      FOLLOW_NEXT,
      `following links.next from ${asked} visited ${visited.length} items, expected ${compared.length === 0 ? 'none (the offset is at or past the end)' : `the collection's items ${window.offset}..${window.offset + compared.length - 1} in its order`}; ` +
        `they part at position ${window.offset + first}: visited ${visited[first] ?? '(nothing)'}, expected ${compared[first] ?? '(nothing)'}. ` +
        `Visited: ${listed(visited)}; expected: ${listed(compared)}.`,
    );
  }
  for (const page of result.pages) {
    const size = Math.max(Math.min(window.limit, reference.length - page.offset), 0);
    if (page.ids.length !== size) {
      broken(
        OFFSET,
        `the page at offset ${page.offset} of the walk from ${asked} holds ${page.ids.length} items, expected min(limit, count − offset) = ${size}.`,
      );
    }
  }
}

export async function checkInvalidLimit(
  client: MediaClient,
  budget: RequestBudget | undefined,
  collection: PagedCollection,
  resolved: Resolved,
  invalid: 'zero' | 'over',
): Promise<void> {
  const asked = describeRequest(collection, resolved.limit, resolved.offset);
  let response: MediaResponse;
  try {
    response = await get(client, budget, requestOf(collection, resolved.limit, resolved.offset));
  } catch (error) {
    if (error instanceof OutOfBudget) return;
    throw error;
  }
  const max = collection.maxLimit;
  const why = invalid === 'over' ? `over the maximum page size of ${max}` : 'not a positive limit';
  if (response.status !== 400)
    broken(LIMIT_BOUNDS, `GET ${asked} (${why}) answered ${response.status}${errorText(response)}, expected 400 Invalid page value.`);
  const error = response.document?.errors?.[0];
  if (error?.title !== 'Invalid page value')
    broken(LIMIT_BOUNDS, `GET ${asked} answered 400 with title ${JSON.stringify(error?.title)}, expected "Invalid page value".`);
  if (String(error.code) !== '118') broken(LIMIT_BOUNDS, `GET ${asked} answered Invalid page value with code ${JSON.stringify(error.code)}, expected "118".`);
  if (invalid === 'over' && error.detail !== `Limit exceeds maximum page size of ${max}.`) {
    broken(LIMIT_BOUNDS, `GET ${asked} answered detail ${JSON.stringify(error.detail)}, expected "Limit exceeds maximum page size of ${max}.".`);
  }
}
