/**
 * The offset paginator as properties (media.pagination.*, field notes
 * "Pagination"): for any collection of the arena, any page[limit] (absent, 1
 * to the maximum, over it, 0) and any page[offset] (absent, 0, anywhere,
 * unaligned, at or past the end), the first answer and every page reached
 * through links.next must agree with the collection read whole: the walk
 * visits items offset..count−1 once each in the collection's order, meta.count
 * is the collection's size on every page, links first/prev/next/last are
 * present exactly when the field notes say and point where they say, as full
 * URLs echoing the query; a limit the collection does not take is 400
 * Invalid page value.
 *
 * The reference is the collection read whole: one request for an unpaginated
 * collection, else links.next from offset 0 at the largest limit, which must
 * itself visit meta.count distinct items.
 *
 * What only the twin can be held to (its documented choices, ASSUMPTIONS.md
 * "Pagination"): the links' origin is the request's, their query strings are
 * Rails' to_query (brackets percent-encoded, pairs sorted, page[limit] and
 * page[offset] always present), prev is at max(offset − limit, 0), and an
 * unpaginated collection read without page parameters links to itself.
 */
import fc from 'fast-check';
import type { MediaClient } from '../../src/clients/media/MediaClient.ts';
import type { JsonApiDocument, MediaRequest, MediaResponse } from '../../src/clients/media/types.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';
import { MEDIA_SEED } from '../../src/twins/media/seedFacts.ts';
import type { RequestBudget } from '../support/liveBudget.ts';
import { broken } from '../../src/testing/ruleTest.ts';
import type { RuleId } from '../../src/rules/catalogues.ts';
import { pagedCollection, type MediaArena, type PagedCollection } from '../support/mediaArena.ts';

/** The walk ran out of live budget: the case stops, with what it saw checked. */
class OutOfBudget extends Error {}

const OFFSET = 'media.pagination.offset';
const META_COUNT = 'media.pagination.meta-count';
const LINKS = 'media.pagination.links';
const FOLLOW_NEXT = 'media.pagination.follow-next';
const LIMIT_BOUNDS = 'media.pagination.limit-bounds-400';

export const PAGINATION_RULES = [OFFSET, META_COUNT, LINKS, FOLLOW_NEXT, LIMIT_BOUNDS] as const;

// --- Generated cases ------------------------------------------------------------

/** page[limit], independent of the collection; resolved against its maximum. */
export type LimitChoice =
  | { readonly kind: 'absent' }
  | { readonly kind: 'small'; readonly n: number }
  | { readonly kind: 'within'; readonly n: number }
  | { readonly kind: 'max' }
  | { readonly kind: 'over'; readonly by: number }
  | { readonly kind: 'zero' };

/** page[offset], independent of the collection; resolved against its size. */
export type OffsetChoice =
  | { readonly kind: 'absent' }
  | { readonly kind: 'at'; readonly n: number }
  | { readonly kind: 'inside'; readonly k: number }
  | { readonly kind: 'fromEnd'; readonly back: number }
  | { readonly kind: 'past'; readonly by: number };

export interface PagingCase {
  readonly collection: string;
  readonly limit: LimitChoice;
  readonly offset: OffsetChoice;
}

export const limitChoice: fc.Arbitrary<LimitChoice> = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 5 }).map((n) => ({ kind: 'small', n }) as const), weight: 4 },
  { arbitrary: fc.integer({ min: 1, max: 25 }).map((n) => ({ kind: 'within', n }) as const), weight: 3 },
  { arbitrary: fc.constant({ kind: 'absent' } as const), weight: 1 },
  { arbitrary: fc.constant({ kind: 'max' } as const), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 3 }).map((by) => ({ kind: 'over', by }) as const), weight: 1 },
  { arbitrary: fc.constant({ kind: 'zero' } as const), weight: 1 },
);

export const offsetChoice: fc.Arbitrary<OffsetChoice> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 45 }).map((n) => ({ kind: 'at', n }) as const), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 45 }).map((k) => ({ kind: 'inside', k }) as const), weight: 2 },
  { arbitrary: fc.constant({ kind: 'absent' } as const), weight: 2 },
  { arbitrary: fc.integer({ min: 1, max: 3 }).map((back) => ({ kind: 'fromEnd', back }) as const), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 5 }).map((by) => ({ kind: 'past', by }) as const), weight: 1 },
);

interface Resolved {
  /** What page[limit] is sent as; undefined: not sent. */
  readonly limit: number | undefined;
  /** What page[offset] is sent as; undefined: not sent. */
  readonly offset: number | undefined;
  /** The answer the field notes promise: a window (Infinity: no limit), or 400 Invalid page value. */
  readonly expect: { readonly window: { readonly limit: number; readonly offset: number } } | { readonly invalid: 'zero' | 'over' };
}

function resolve(collection: PagedCollection, c: PagingCase, count: number): Resolved {
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

export interface PaginationPropertyOptions {
  readonly arena: MediaArena;
  /** Live: requests allowed to the whole property (reference reads included). */
  readonly budget?: RequestBudget;
}

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
function pageOf(response: MediaResponse, rule: RuleId, what: string): Page {
  if (response.status !== 200) broken(rule, `${what}: GET ${response.url} answered ${response.status}${errorText(response)}, expected 200 with a collection.`);
  const doc = response.document;
  if (!doc || !Array.isArray(doc.data)) broken(rule, `${what}: GET ${response.url} answered 200 without a data array.`);
  const ids = doc.data.map((resource) => `${resource.type}/${resource.id}`);
  return { url: response.url, response, doc, ids };
}

function countOf(page: Page, what: string): number {
  const count = page.doc.meta?.['count'];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
    broken(META_COUNT, `${what}: GET ${page.url} has meta.count ${JSON.stringify(count)}, expected the collection's size as a whole number.`);
  }
  return count;
}

function requestOf(collection: PagedCollection, limit: number | undefined, offset: number | undefined): Omit<MediaRequest, 'method' | 'retry'> {
  return { path: collection.path, query: { ...collection.params, 'page[limit]': limit, 'page[offset]': offset } };
}

function describeRequest(collection: PagedCollection, limit: number | undefined, offset: number | undefined): string {
  const page = [limit !== undefined ? `page[limit]=${limit}` : '', offset !== undefined ? `page[offset]=${offset}` : ''].filter(Boolean).join('&');
  return `${collection.label}${page ? `${collection.label.includes('?') ? '&' : '?'}${page}` : ''}`;
}

/**
 * The collection read whole: one request for an unpaginated collection, else
 * links.next from offset 0 at the largest limit. undefined when the live
 * budget could not pay for it.
 */
async function readReference(client: MediaClient, budget: RequestBudget | undefined, collection: PagedCollection): Promise<readonly string[] | undefined> {
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

/** links of one answer against the field notes (every target) and the twin's documented choices (twin only). */
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

async function walk(
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
function checkWalk(asked: string, result: WalkResult, reference: readonly string[], window: { limit: number; offset: number }): void {
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

async function checkInvalidLimit(
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

/** The property: any collection, limit and offset give the window, the links and the walk the field notes describe. */
export function paginationProperty(options: PaginationPropertyOptions): fc.IAsyncProperty<[PagingCase]> {
  const { arena, budget } = options;
  const byLabel = new Map(arena.collections.map((c) => [c.label, c]));
  const references = new Map<string, Promise<readonly string[] | undefined>>();
  const client = arena.client();
  const pagingCase: fc.Arbitrary<PagingCase> = fc.record({
    collection: fc.constantFrom(...arena.collections.map((c) => c.label)),
    limit: limitChoice,
    offset: offsetChoice,
  });
  return fc.asyncProperty(pagingCase, async (c) => {
    const collection = byLabel.get(c.collection)!;
    let reference = references.get(c.collection);
    if (!reference) {
      reference = readReference(client, budget, collection);
      references.set(c.collection, reference);
      // A failed reference read fails every case of that collection alike, so shrinking keeps its message.
    }
    const ids = await reference;
    if (ids === undefined) return;
    const resolved = resolve(collection, c, ids.length);
    if ('invalid' in resolved.expect) {
      await checkInvalidLimit(client, budget, collection, resolved, resolved.expect.invalid);
      return;
    }
    const window = resolved.expect.window;
    const result = await walk(arena, client, budget, collection, resolved, window, ids.length);
    checkWalk(describeRequest(collection, resolved.limit, resolved.offset), result, ids, window);
  });
}

// --- Writes between pages (twin only) -------------------------------------------

/** Library entries the owner creates or deletes between two pages of the walk. */
export type LibraryWrite = { readonly kind: 'create'; readonly anime: number } | { readonly kind: 'delete'; readonly pick: number };

export interface ConcurrentCase {
  readonly limit: number;
  readonly offset: number;
  /** Writes before page i + 1 (i from 0); more lists than pages are never used. */
  readonly between: readonly (readonly LibraryWrite[])[];
}

const libraryWrite: fc.Arbitrary<LibraryWrite> = fc.oneof(
  fc.integer({ min: 1, max: MEDIA_SEED.animeCount }).map((anime) => ({ kind: 'create', anime }) as const),
  fc.nat(20).map((pick) => ({ kind: 'delete', pick }) as const),
);

/**
 * A user's library entries paged while the user adds and removes entries
 * between pages. Offset paging promises no snapshot, so only this is checked:
 * every answer is a 200 collection, meta.count is the library's size at that
 * answer, every item shown is in the library at that moment (no phantom, no
 * deleted entry), no page shows an item twice, each page holds
 * min(limit, count − offset) items, and the walk ends.
 */
export function concurrentWritesProperty(arena: MediaArena): fc.IAsyncProperty<[ConcurrentCase]> {
  const user = MEDIA_SEED.users.adultAllowed;
  const collection = pagedCollection(`library-entries?filter[userId]=${user.id}`, '/library-entries', 'library-entries', { 'filter[userId]': user.id });
  const arbitrary: fc.Arbitrary<ConcurrentCase> = fc.record({
    limit: fc.integer({ min: 1, max: 4 }),
    offset: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 8 })),
    between: fc.array(fc.array(libraryWrite, { maxLength: 3 }), { maxLength: 8 }),
  });
  return fc.asyncProperty(arbitrary, async (c) => {
    if (!arena.signIn || !arena.reset) throw new Error('concurrentWritesProperty needs a twin arena (signIn, reset).');
    await arena.reset();
    try {
      const owner = await arena.signIn('adultAllowed');
      // The library as the owner sees it, kept up to date with every write.
      const library = new Set<string>();
      for await (const entry of owner.iterate('library-entries', { filter: { userId: user.id }, page: { limit: collection.maxLimit } }))
        library.add(`${entry.type}/${entry.id}`);
      const asked = describeRequest(collection, c.limit, c.offset);
      let response = await owner.send({ method: 'GET', retry: false, ...requestOf(collection, c.limit, c.offset) });
      const maxPages = library.size + c.between.flat().length + 2;
      for (let k = 0; ; k++) {
        const writes = c.between.slice(0, k).flat().length;
        const what = k === 0 ? `GET ${asked}` : `page ${k + 1} of the walk from ${asked}, after ${writes} write${writes === 1 ? '' : 's'}`;
        const page = pageOf(response, k === 0 ? OFFSET : FOLLOW_NEXT, what);
        const count = countOf(page, what);
        if (count !== library.size) broken(META_COUNT, `${what}: meta.count is ${count}, but the library holds ${library.size} entries at that moment.`);
        const phantom = page.ids.filter((id) => !library.has(id));
        if (phantom.length > 0) broken(FOLLOW_NEXT, `${what}: the page shows ${phantom.join(', ')}, not in the library at that moment.`);
        if (new Set(page.ids).size !== page.ids.length) broken(FOLLOW_NEXT, `${what}: the page shows an entry twice (${page.ids.join(', ')}).`);
        const at = c.offset + k * c.limit;
        const size = Math.max(Math.min(c.limit, count - at), 0);
        if (page.ids.length !== size)
          broken(OFFSET, `${what}: the page at offset ${at} holds ${page.ids.length} entries, expected min(limit, count − offset) = ${size}.`);
        const next = page.doc.links?.['next'];
        if (typeof next !== 'string') break;
        if (k + 1 >= maxPages) broken(FOLLOW_NEXT, `the walk from ${asked} still has links.next after ${k + 1} pages.`);
        for (const write of c.between[k] ?? []) await applyWrite(owner, user.id, library, write);
        response = await owner.send({ method: 'GET', retry: false, url: next });
      }
    } finally {
      await arena.reset();
    }
  });
}

async function applyWrite(owner: MediaClient, userId: string, library: Set<string>, write: LibraryWrite): Promise<void> {
  if (write.kind === 'delete') {
    const ids = [...library].sort();
    const victim = ids.length > 0 ? ids[write.pick % ids.length] : undefined;
    if (victim === undefined) return;
    await owner.destroy('library-entries', victim.split('/')[1]!);
    library.delete(victim);
    return;
  }
  const response = await owner.send({
    method: 'POST',
    retry: false,
    path: '/library-entries',
    body: {
      data: {
        type: 'libraryEntries',
        attributes: { status: 'planned' },
        relationships: { user: { data: { type: 'users', id: userId } }, anime: { data: { type: 'anime', id: String(write.anime) } } },
      },
    },
  });
  // 422 "has already been taken": the anime is in the library already; nothing changed.
  if (response.status === 422) return;
  if (response.status !== 201) throw new Error(`creating a library entry for anime ${write.anime} answered ${response.status}: ${response.text.slice(0, 300)}`);
  const data = response.document?.data;
  if (!data || Array.isArray(data)) throw new Error('creating a library entry answered 201 without the entry');
  library.add(`${data.type}/${data.id}`);
}
