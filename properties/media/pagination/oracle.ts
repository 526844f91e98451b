/**
 * What the media pagination properties hold a provider to (media.pagination.*):
 * the collection read whole as the reference, where each page's window falls,
 * the links first/prev/next/last, a walk through links.next, where links.first
 * and links.last lead, and the 400 for a limit the collection does not take.
 *
 * Each check names the rule it belongs to, and the rule's kind decides what a
 * difference means (docs/architecture.md, "What a verdict means"): what JSON:API
 * requires (links.last leads to the last page of data, links.first to the
 * first: media.pagination.same-listing) and what the typed client and the pacts
 * rely on (the walk through links.next, meta.count, first and last on every
 * page, no next on the last: follow-next, meta-count, first-last) fail on every
 * target; the offset paginator's details (where a window starts, its size, the
 * links' offsets and query strings, the 400 for a limit over the maximum:
 * offset, links, limit-bounds-400, field notes) hold the twin to its choice and
 * are observations on live, record and replay (`Verdicts.observe`).
 */
import type { MediaClient } from '../../../src/clients/media/MediaClient.ts';
import type { JsonApiDocument, MediaRequest, MediaResponse } from '../../../src/clients/media/types.ts';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import type { RequestBudget } from '../../support/liveBudget.ts';
import { broken } from '../../../src/testing/ruleTest.ts';
import type { RuleId } from '../../../src/rules/catalogues.ts';
import { type MediaArena, type PagedCollection } from '../../support/mediaArena.ts';
import { isObservedOnLive, type ObservationSink } from '../../support/observation.ts';
import { type PagingCase } from './arbitraries.ts';

/** The walk ran out of live budget: the case stops, with what it saw checked. */
class OutOfBudget extends Error {}

/** An answer the case needs differed from a field-notes rule on a real provider: observed, and the case stops there. */
class Observed extends Error {}

/** Where the checks send a difference from a rule. */
export interface Verdicts {
  /**
   * Live, record and replay: where a difference from a field-notes rule goes, as an `observation`
   * annotation (properties/support/observation.ts). Undefined on the twins, which are held to every rule.
   */
  readonly observe?: ObservationSink | undefined;
}

/**
 * A difference from `rule`: a failure on the twins, and of a contract or reliance rule on every
 * target; of a field-notes rule on a real provider, an observation, and the check goes on.
 */
function differs(v: Verdicts, rule: RuleId, message: string): void {
  if (v.observe && isObservedOnLive(rule)) v.observe(rule, message);
  else broken(rule, message);
}

export const OFFSET = 'media.pagination.offset';

export const META_COUNT = 'media.pagination.meta-count';

const LINKS = 'media.pagination.links';

const FIRST_LAST = 'media.pagination.first-last';

export const FOLLOW_NEXT = 'media.pagination.follow-next';

const SAME_LISTING = 'media.pagination.same-listing';

const LIMIT_BOUNDS = 'media.pagination.limit-bounds-400';

export const PAGINATION_RULES = [OFFSET, META_COUNT, LINKS, FIRST_LAST, FOLLOW_NEXT, SAME_LISTING, LIMIT_BOUNDS] as const;

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

/**
 * A 200 collection document, or a difference from `rule` naming the request: a failure, or (a
 * field-notes rule on a real provider) an observation that stops the case, since nothing can be read on.
 */
export function pageOf(response: MediaResponse, rule: RuleId, what: string, v: Verdicts = {}): Page {
  const doc = response.document;
  if (response.status !== 200 || !doc || !Array.isArray(doc.data)) {
    const message =
      response.status !== 200
        ? `${what}: GET ${response.url} answered ${response.status}${errorText(response)}, expected 200 with a collection.`
        : `${what}: GET ${response.url} answered 200 without a data array.`;
    differs(v, rule, message);
    throw new Observed(message);
  }
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
 * budget could not pay for it, or a real provider did not serve the largest
 * limit of the field notes (observed).
 */
export async function readReference(
  v: Verdicts,
  client: MediaClient,
  budget: RequestBudget | undefined,
  collection: PagedCollection,
): Promise<readonly string[] | undefined> {
  try {
    const what = `reading ${collection.label} whole for the reference`;
    // page[limit] at the field notes' maximum is theirs (offset); a collection read without page parameters is the walk's start (follow-next).
    const firstRule = collection.maxLimit === undefined ? FOLLOW_NEXT : OFFSET;
    const first = pageOf(await get(client, budget, requestOf(collection, collection.maxLimit, undefined)), firstRule, what, v);
    const count = countOf(first, what);
    const ids = [...first.ids];
    let page = first;
    for (let pages = 1; typeof page.doc.links?.['next'] === 'string'; pages++) {
      if (pages > count + 1) broken(FOLLOW_NEXT, `${what}: links.next is still there after ${pages} pages of ${collection.maxLimit} for meta.count ${count}.`);
      const next = followed(page.doc.links['next'], page.url, FOLLOW_NEXT, `${what}: links.next of ${page.url}`);
      page = pageOf(await get(client, budget, { url: next }), FOLLOW_NEXT, `${what}, following links.next`);
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
    if (error instanceof OutOfBudget || error instanceof Observed) return undefined;
    throw error;
  }
}

/** A link as the client follows it: resolved against the answer it came in (JSON:API 1.1 allows a URI-reference); unreadable, a failure of `rule`. */
function followed(raw: string, from: string, rule: RuleId, what: string): string {
  try {
    return new URL(raw, from).href;
  } catch {
    broken(rule, `${what} is ${JSON.stringify(raw)}, not a URL.`);
  }
}

// --- Links ----------------------------------------------------------------------

const RELS = ['first', 'prev', 'next', 'last'] as const;

type Rel = (typeof RELS)[number];

type Links = Record<Rel, URL | undefined>;

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
 * The rule a link's place is relied on by: first and last, full URLs under the API base on every page of a
 * paginated collection (first-last); next, followed by MediaClient.iterate, which refuses a link outside the base
 * (follow-next); prev, the field notes' alone (links).
 */
function reliedOn(rel: Rel, paginated: boolean): RuleId {
  if (rel === 'next') return FOLLOW_NEXT;
  return paginated && (rel === 'first' || rel === 'last') ? FIRST_LAST : LINKS;
}

/**
 * links of one answer: what the client and the pacts rely on fails everywhere (first and last on every page of a
 * paginated collection, as full URLs under the API base; next exactly while more remain), the field notes' offsets,
 * query strings and the twin's documented choices are differences from media.pagination.links (observed on live).
 * Where each link leads is checked by following it (checkFirstAndLast, checkWalk). One rel after another in one
 * function: each check reads the window and the others' URLs, and its message names the page.
 */
function checkLinks(v: Verdicts, page: Page, e: LinkExpectation): Links {
  const links = page.doc.links;
  const where = `${e.what} (GET ${page.url}, meta.count ${e.count})`;
  const paginated = e.collection.maxLimit !== undefined;
  const parsed: Links = { first: undefined, prev: undefined, next: undefined, last: undefined };
  if (!links || typeof links !== 'object') {
    differs(v, paginated ? FIRST_LAST : LINKS, `${where}: no links object; a collection always carries links first and last.`);
    return parsed;
  }
  const base = new URL(e.arena.apiUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const path = `${basePath}${e.collection.path}`;
  for (const rel of RELS) {
    const raw = links[rel];
    if (raw === undefined || raw === null) continue;
    const relied = reliedOn(rel, paginated);
    let url: URL | undefined;
    try {
      url = typeof raw === 'string' ? new URL(raw, page.url) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      differs(v, relied, `${where}: links.${rel} is ${JSON.stringify(raw)}, not a URL.`);
      continue;
    }
    // A relative link leads where it says (JSON:API 1.1 allows it); the field notes and the pacts' first and last are full URLs.
    if (!/^https?:\/\//i.test(String(raw)))
      differs(v, relied === FOLLOW_NEXT ? LINKS : relied, `${where}: links.${rel} is ${JSON.stringify(raw)}, not a full URL.`);
    if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) {
      differs(v, relied, `${where}: links.${rel} is ${url.href}, not under the API base ${e.arena.apiUrl}.`);
      continue;
    }
    // The form of the URL is the field notes' (and, for the order and encoding of its pairs, the twin's: ASSUMPTIONS.md
    // "Pagination"); whether it leads to a page of the same listing is seen by following it.
    if (url.pathname !== path) differs(v, LINKS, `${where}: links.${rel} is ${url.href}, whose path is not the collection's ${path}.`);
    for (const [name, value] of Object.entries(e.collection.params)) {
      if (url.searchParams.get(name) !== value) differs(v, LINKS, `${where}: links.${rel} is ${url.href}; it must echo ${name}=${value}.`);
    }
    // Rails' to_query: CGI-escaped pairs (brackets as %5B %5D), sorted.
    const pairs = url.search.replace(/^\?/, '').split('&').filter(Boolean);
    if (/[[\]]/.test(url.search)) differs(v, LINKS, `${where}: links.${rel} is ${url.href}; the twin percent-encodes brackets (%5B, %5D) as the fixtures do.`);
    if (pairs.join('&') !== [...pairs].sort().join('&'))
      differs(v, LINKS, `${where}: links.${rel} is ${url.href}; the twin sorts the query's pairs as Rails' to_query does.`);
    parsed[rel] = url;
  }
  const presence = paginated ? FIRST_LAST : LINKS;
  if (links['first'] === undefined || links['first'] === null)
    differs(v, presence, `${where}: links.first is missing; a collection always links its first page.`);
  if (links['last'] === undefined || links['last'] === null) differs(v, presence, `${where}: links.last is missing; a collection always links its last page.`);

  if (e.window === undefined) {
    // Everything at once: nothing before or after.
    if (parsed.prev || parsed.next)
      differs(v, LINKS, `${where}: links.${parsed.prev ? 'prev' : 'next'} is present, but the answer holds the whole collection.`);
    for (const rel of ['first', 'last'] as const) {
      const url = parsed[rel];
      if (url && (url.searchParams.has('page[limit]') || url.searchParams.has('page[offset]'))) {
        differs(v, LINKS, `${where}: links.${rel} is ${url.href}; unpaginated, the twin links the collection URL with the client's parameters only.`);
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
    if (finite && sentLimit !== String(limit)) differs(v, LINKS, `${where}: links.${rel} is ${url.href}; it must keep page[limit]=${limit}.`);
    // The twin writes page[offset] always, and page[limit] whenever the window has one (an offset alone on an unpaginated collection has none).
    if ((finite && sentLimit === null) || (!finite && sentLimit !== null) || !url.searchParams.has('page[offset]')) {
      differs(v, LINKS, `${where}: links.${rel} is ${url.href}; the twin writes page[offset] always and page[limit] exactly when the window has a limit.`);
    }
  }
  const at = (url: URL): number => linkOffset(url) ?? 0;
  if (parsed.first && at(parsed.first) !== 0) differs(v, LINKS, `${where}: links.first is at offset ${at(parsed.first)}, expected 0.`);
  const lastOffset = finite ? Math.max(e.count - limit, 0) : 0;
  if (parsed.last && at(parsed.last) !== lastOffset) {
    differs(v, LINKS, `${where}: links.last is at offset ${at(parsed.last)}, expected max(count − limit, 0) = ${lastOffset} (not aligned to pages).`);
  }
  if (offset > 0 && !parsed.prev) differs(v, LINKS, `${where}: links.prev is missing at offset ${offset} > 0.`);
  if (offset === 0 && parsed.prev) differs(v, LINKS, `${where}: links.prev is present at offset 0.`);
  if (parsed.prev) {
    const prev = at(parsed.prev);
    if (prev !== Math.max(offset - limit, 0))
      differs(v, LINKS, `${where}: links.prev is at offset ${prev}; the twin steps back by the limit to ${Math.max(offset - limit, 0)}.`);
    if (!(prev >= 0 && prev < offset)) differs(v, LINKS, `${where}: links.prev is at offset ${prev}, not before offset ${offset}.`);
  }
  // Where next is, by the field notes' offsets; that the walk reaches every item and ends there is the walk's to say
  // (walk, checkWalk: follow-next and first-last), without assuming how far each page goes.
  const hasNext = offset + limit < e.count;
  if (hasNext && !parsed.next) differs(v, LINKS, `${where}: links.next is missing though offset + limit (${offset + limit}) < count.`);
  if (!hasNext && parsed.next) differs(v, LINKS, `${where}: links.next is present though offset + limit (${offset + limit}) ≥ count.`);
  if (parsed.next && at(parsed.next) !== offset + limit)
    differs(v, LINKS, `${where}: links.next is at offset ${at(parsed.next)}, expected offset + limit = ${offset + limit}.`);
  return parsed;
}

// --- The walk -------------------------------------------------------------------

interface WalkResult {
  readonly pages: readonly { readonly offset: number; readonly ids: readonly string[] }[];
  /** False when the live budget stopped it, or its first answer was observed rather than read. */
  readonly complete: boolean;
  /** The links of the walk's first answer, as checkLinks read them (a link it refused is not there). */
  readonly firstLinks: Links | undefined;
}

export async function walk(
  v: Verdicts,
  arena: MediaArena,
  client: MediaClient,
  budget: RequestBudget | undefined,
  collection: PagedCollection,
  resolved: Resolved,
  window: { readonly limit: number; readonly offset: number },
  count: number,
): Promise<WalkResult> {
  const asked = describeRequest(collection, resolved.limit, resolved.offset);
  const unwindowed = isUnwindowed(collection, resolved);
  const { limit, offset } = window;
  const pages: { offset: number; ids: readonly string[] }[] = [];
  let firstLinks: Links | undefined;
  try {
    // A window asked with page[limit] or page[offset] is the field notes' paginator; a collection read without them is the walk's start.
    const firstRule = resolved.limit === undefined && resolved.offset === undefined ? FOLLOW_NEXT : OFFSET;
    let page = pageOf(await get(client, budget, requestOf(collection, resolved.limit, resolved.offset)), firstRule, `GET ${asked}`, v);
    for (let k = 0; ; k++) {
      const at = k === 0 ? offset : offset + k * limit;
      const what = k === 0 ? `GET ${asked}` : `page ${k + 1} of the walk from ${asked} (offset ${at}, reached through links.next)`;
      const seen = countOf(page, what);
      if (seen !== count)
        broken(META_COUNT, `${what}: meta.count is ${seen} at ${page.url}; the collection has ${count} (read whole), and nothing changed it.`);
      const links = checkLinks(v, page, { arena, collection, window: unwindowed ? undefined : { limit, offset: at }, count, what });
      if (k === 0) firstLinks = links;
      pages.push({ offset: at, ids: page.ids });
      if (!links.next) break;
      // What the client relies on, whatever the page sizes: a page with no resources is past the end (MediaClient.iterate
      // refuses its next), and a walk from the start that has seen every item is on the last page, which has no next.
      if (page.ids.length === 0)
        broken(FOLLOW_NEXT, `${what}: a page with no resources carries links.next (${links.next.href}): a walk would go on past the end.`);
      if (offset === 0 && new Set(pages.flatMap((p) => p.ids)).size >= count) {
        broken(
          FIRST_LAST,
          `${what}: the walk from ${asked} has seen all ${count} items, yet this page carries links.next (${links.next.href}): the last page has none.`,
        );
      }
      if (k > count + 1) broken(FOLLOW_NEXT, `the walk from ${asked} still has links.next after ${k + 1} pages for ${count} items.`);
      page = pageOf(await get(client, budget, { url: links.next.href }), FOLLOW_NEXT, `following links.next of page ${k + 1} from ${asked}`);
    }
    return { pages, complete: true, firstLinks };
  } catch (error) {
    if (error instanceof OutOfBudget || error instanceof Observed) return { pages, complete: false, firstLinks };
    throw error;
  }
}

/** An unpaginated collection read without page parameters: one answer holds it all. */
export function isUnwindowed(collection: PagedCollection, resolved: Resolved): boolean {
  return collection.maxLimit === undefined && resolved.limit === undefined && resolved.offset === undefined;
}

function listed(ids: readonly string[]): string {
  return ids.length === 0 ? '(none)' : ids.length > 12 ? `${ids.slice(0, 12).join(', ')}, … (${ids.length})` : ids.join(', ');
}

/**
 * The walk against the reference. Relied on everywhere (follow-next): no item twice, none outside the collection,
 * from offset 0 every item of it, and from anywhere on to the collection's last item (the reference is the provider's
 * own order, read through its links.next). The offset paginator's (offset, field notes): the walk starts at item
 * `offset` and goes on in the collection's order, each page min(limit, count − offset) long.
 */
export function checkWalk(v: Verdicts, asked: string, result: WalkResult, reference: readonly string[], window: { limit: number; offset: number }): void {
  const visited = result.pages.flatMap((p) => p.ids);
  const repeated = visited.filter((id, i) => visited.indexOf(id) !== i);
  if (repeated.length > 0) broken(FOLLOW_NEXT, `following links.next from ${asked} visited ${listed([...new Set(repeated)])} more than once.`);
  const members = new Set(reference);
  const foreign = visited.filter((id) => !members.has(id));
  if (foreign.length > 0) broken(FOLLOW_NEXT, `following links.next from ${asked} visited ${listed(foreign)}, not in the collection read whole.`);
  if (result.complete && window.offset === 0 && visited.length !== reference.length) {
    const missed = reference.filter((id) => !visited.includes(id));
    broken(
      FOLLOW_NEXT,
      `following links.next from ${asked} visited ${visited.length} of the collection's ${reference.length} items; it never reached ${listed(missed)}.`,
    );
  }
  const end = reference.at(-1);
  if (result.complete && visited.length > 0 && end !== undefined && !visited.includes(end)) {
    broken(
      FOLLOW_NEXT,
      `following links.next from ${asked} ended at ${visited.at(-1)} without reaching the collection's last item ${end}: links.next stops short of the end.`,
    );
  }
  const expected = reference.slice(window.offset);
  const compared = result.complete ? expected : expected.slice(0, visited.length);
  const differ = visited.length !== compared.length || visited.some((id, i) => id !== compared[i]);
  if (differ) {
    const at = visited.findIndex((id, i) => id !== compared[i]);
    const first = at === -1 ? Math.min(visited.length, compared.length) : at;
    differs(
      v,
      OFFSET,
      `following links.next from ${asked} visited ${visited.length} items, expected ${compared.length === 0 ? 'none (the offset is at or past the end)' : `the collection's items ${window.offset}..${window.offset + compared.length - 1} in its order`}; ` +
        `they part at position ${window.offset + first}: visited ${visited[first] ?? '(nothing)'}, expected ${compared[first] ?? '(nothing)'}. ` +
        `Visited: ${listed(visited)}; expected: ${listed(compared)}.`,
    );
    // Where the walk is not the window, its pages' sizes say nothing more.
    return;
  }
  for (const page of result.pages) {
    const size = Math.max(Math.min(window.limit, reference.length - page.offset), 0);
    if (page.ids.length !== size) {
      differs(
        v,
        OFFSET,
        `the page at offset ${page.offset} of the walk from ${asked} holds ${page.ids.length} items, expected min(limit, count − offset) = ${size}.`,
      );
      return;
    }
  }
}

/** Whether `ids` are the same items as `expected`, in any order (where no sort is asked, the order within a page is the provider's). */
function sameItems(ids: readonly string[], expected: readonly string[]): boolean {
  const wanted = new Set(expected);
  return ids.length === expected.length && new Set(ids).size === ids.length && ids.every((id) => wanted.has(id));
}

/**
 * Where the first answer's links.last and links.first lead (JSON:API, Pagination: "the last page of data", "the first
 * page of data"; media.pagination.same-listing, contract, on every target): links.last to a page whose resources are
 * the collection's last ones and which carries no links.next (first-last), links.first to one whose resources are its
 * first ones, each no longer than the page size. Whether last is at max(count − limit, 0) or aligned to pages is the
 * field notes' (checkLinks): both are the last page of data. links.first is followed only when the walk did not
 * start there. Each costs a request; on live the budget may stop them.
 */
export async function checkFirstAndLast(
  client: MediaClient,
  budget: RequestBudget | undefined,
  asked: string,
  result: WalkResult,
  reference: readonly string[],
  window: { readonly limit: number; readonly offset: number },
): Promise<void> {
  const links = result.firstLinks;
  if (!links) return;
  const count = reference.length;
  const size = Number.isFinite(window.limit) ? `page[limit]=${window.limit}` : 'the whole collection';
  try {
    if (links.last) {
      const what = `links.last of GET ${asked} (${links.last.href})`;
      const page = pageOf(await get(client, budget, { url: links.last.href }), SAME_LISTING, `following ${what}`);
      const n = page.ids.length;
      const tail = reference.slice(Math.max(count - n, 0));
      if (count > 0 && n === 0) broken(SAME_LISTING, `${what} answers no resources, but the collection has ${count}: it is not the last page of data.`);
      if (n > window.limit) broken(SAME_LISTING, `${what} answers ${n} resources, more than a page of ${size}.`);
      if (!sameItems(page.ids, tail)) {
        broken(SAME_LISTING, `${what} answers ${listed(page.ids)}, not the collection's last ${n} (${listed(tail)}): it is not the last page of data.`);
      }
      const next = page.doc.links?.['next'];
      if (typeof next === 'string') broken(FIRST_LAST, `${what} leads to a page that carries links.next (${next}): the last page has none.`);
    }
    if (links.first && window.offset > 0) {
      const what = `links.first of GET ${asked} (${links.first.href})`;
      const page = pageOf(await get(client, budget, { url: links.first.href }), SAME_LISTING, `following ${what}`);
      const n = page.ids.length;
      const head = reference.slice(0, n);
      if (count > 0 && n === 0) broken(SAME_LISTING, `${what} answers no resources, but the collection has ${count}: it is not the first page of data.`);
      if (n > window.limit) broken(SAME_LISTING, `${what} answers ${n} resources, more than a page of ${size}.`);
      if (!sameItems(page.ids, head)) {
        broken(SAME_LISTING, `${what} answers ${listed(page.ids)}, not the collection's first ${n} (${listed(head)}): it is not the first page of data.`);
      }
    }
  } catch (error) {
    if (error instanceof OutOfBudget) return;
    throw error;
  }
}

/** A limit the collection does not take: 400 Invalid page value, as the field notes saw it (limit-bounds-400; observed on live). */
export async function checkInvalidLimit(
  v: Verdicts,
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
    return differs(v, LIMIT_BOUNDS, `GET ${asked} (${why}) answered ${response.status}${errorText(response)}, expected 400 Invalid page value.`);
  const error = response.document?.errors?.[0];
  if (error?.title !== 'Invalid page value')
    return differs(v, LIMIT_BOUNDS, `GET ${asked} answered 400 with title ${JSON.stringify(error?.title)}, expected "Invalid page value".`);
  if (String(error.code) !== '118')
    return differs(v, LIMIT_BOUNDS, `GET ${asked} answered Invalid page value with code ${JSON.stringify(error.code)}, expected "118".`);
  if (invalid === 'over' && error.detail !== `Limit exceeds maximum page size of ${max}.`) {
    differs(v, LIMIT_BOUNDS, `GET ${asked} answered detail ${JSON.stringify(error.detail)}, expected "Limit exceeds maximum page size of ${max}.".`);
  }
}
