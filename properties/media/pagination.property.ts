/**
 * The offset paginator as properties (media.pagination.*, field notes
 * "Pagination"): for any collection of the arena, any page[limit] (absent, 1
 * to the maximum, over it, 0) and any page[offset] (absent, 0, anywhere,
 * unaligned, at or past the end), the first answer and every page reached
 * through links.next must agree with the collection read whole.
 *
 * On every target (what JSON:API says and what the typed client and the pacts
 * rely on): the walk through links.next visits no item twice and none outside
 * the collection, from offset 0 all of it, from anywhere on to its last item,
 * and carries no links.next once complete; meta.count is the collection's
 * size on every page; every page of a paginated collection carries links.first
 * and links.last as full URLs under the API base; links.last leads to the last
 * page of data (the collection's last resources, and no links.next there) and
 * links.first to the first.
 *
 * The field notes' details, held on the twins and observed on live, record
 * and replay (an `observation` annotation, never a failure): the walk starts
 * at item page[offset] and goes on in the collection's order, each page
 * min(limit, count − offset) long; prev exactly when offset > 0 and next
 * exactly when offset + limit < count; links first/prev/next at offsets 0,
 * max(offset − limit, 0) and offset + limit, last at max(count − limit, 0)
 * (not aligned to pages); full URLs on the collection's path echoing the
 * query; a limit the collection does not take is 400 Invalid page value; and
 * the twin's documented choices (ASSUMPTIONS.md "Pagination"): query strings
 * as Rails' to_query writes them (brackets percent-encoded, pairs sorted,
 * page[limit] and page[offset] always present), and an unpaginated collection
 * read without page parameters links to itself.
 *
 * The reference is the collection read whole: one request for an unpaginated
 * collection, else links.next from offset 0 at the largest limit, which must
 * itself visit meta.count distinct items.
 */
import fc from 'fast-check';
import type { MediaClient } from '../../src/clients/media/MediaClient.ts';
import { MEDIA_SEED } from '../../src/twins/media/seedFacts.ts';
import type { RequestBudget } from '../support/liveBudget.ts';
import type { ObservationSink } from '../support/observation.ts';
import { broken } from '../../src/testing/ruleTest.ts';
import { pagedCollection, type MediaArena } from '../support/mediaArena.ts';
import { limitChoice, offsetChoice, libraryWrite, type PagingCase, type LibraryWrite, type ConcurrentCase } from './pagination/arbitraries.ts';
import {
  OFFSET,
  META_COUNT,
  FOLLOW_NEXT,
  resolve,
  pageOf,
  countOf,
  describeRequest,
  readReference,
  walk,
  checkWalk,
  checkFirstAndLast,
  checkInvalidLimit,
  requestOf,
  type Verdicts,
} from './pagination/oracle.ts';

export interface PaginationPropertyOptions {
  readonly arena: MediaArena;
  /** Live: requests allowed to the whole property (reference reads included). */
  readonly budget?: RequestBudget;
  /** Live, record and replay: where differences from the field-notes rules go, as observations; unset on the twins. */
  readonly observe?: ObservationSink;
}

/** The property: any collection, limit and offset give the walk and links JSON:API and the client need, and the window and links the field notes describe. */
export function paginationProperty(options: PaginationPropertyOptions): fc.IAsyncProperty<[PagingCase]> {
  const { arena, budget } = options;
  const v: Verdicts = { observe: options.observe };
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
      reference = readReference(v, client, budget, collection);
      references.set(c.collection, reference);
      // A failed reference read fails every case of that collection alike, so shrinking keeps its message.
    }
    const ids = await reference;
    if (ids === undefined) return;
    const resolved = resolve(collection, c, ids.length);
    if ('invalid' in resolved.expect) {
      await checkInvalidLimit(v, client, budget, collection, resolved, resolved.expect.invalid);
      return;
    }
    const window = resolved.expect.window;
    const asked = describeRequest(collection, resolved.limit, resolved.offset);
    const result = await walk(v, arena, client, budget, collection, resolved, window, ids.length);
    checkWalk(v, asked, result, ids, window);
    await checkFirstAndLast(client, budget, asked, result, ids, window);
  });
}

// --- Writes between pages (twin only) -------------------------------------------

/**
 * A user's library entries paged while the user adds and removes entries
 * between pages. Offset paging promises no snapshot, so only this is checked:
 * every answer is a 200 collection, meta.count is the library's size at that
 * answer, every item shown is in the library at that moment (no phantom, no
 * deleted entry), no page shows an item twice, each page holds
 * min(limit, count − offset) items, and the walk ends. (One function: the
 * arrange, the walk with its writes and the checks share the case's state.)
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
