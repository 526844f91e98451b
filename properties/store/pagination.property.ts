/**
 * Pagination as properties (store.pagination.*). The walk: for any collection
 * size and page size, following Link next from page 1 visits every item once,
 * in a stable order, with X-Total-Count, page sizes and Link rels that agree.
 * Out of range: per_page over 200 is served as 200, a page or per_page that is
 * not a positive integer is refused. Paging during writes: what offset paging
 * over ascending ids can promise a client, and nothing more.
 */
import { broken, RuleBroken } from '../../src/testing/ruleTest.ts';
import fc from 'fast-check';
import type { StoreClient } from '../../src/clients/store/StoreClient.ts';
import type { Exchange } from '../../src/clients/store/types.ts';
import { MS_PER_LEAK, STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { pathOf } from '../../suites/fixtures/storeChecks.ts';
import type { ArenaStore, StoreArena } from '../support/storeArena.ts';
import { walkCaseArbitrary, outOfRangeArbitrary, concurrentCaseArbitrary, type WalkCase, type ConcurrentCase } from './pagination/arbitraries.ts';
import {
  FOLLOW,
  OutOfBudget,
  safeJson,
  pageSize,
  isLastPage404,
  checkWalk,
  walkCost,
  checkOutOfRange,
  checkConcurrentWalk,
  type LinkForms,
  type OutOfRangeAsk,
  type Pager,
  type ListRequest,
} from './pagination/oracle.ts';

const { maxPerPage } = STORE_CONTRACT;

/**
 * An unpaced twin client that empties the store's bucket (virtual time) before
 * it can fill: a walk of hundreds of pages never meets 429, at one clock call
 * per bucketful where the pacer would make one per request once it is full.
 */
function drainingPager(store: ArenaStore, forms: LinkForms): Pager {
  let sent = 0;
  return {
    client: store.client(),
    forms,
    beforeRequest: async () => {
      if (++sent % STORE_CONTRACT.bucketSize === 0) await store.clock.sleep(STORE_CONTRACT.bucketSize * MS_PER_LEAK);
    },
  };
}

/** The walk on a fresh twin store of each case's size. */
export function walkProperty(arena: StoreArena): fc.IAsyncProperty<[WalkCase]> {
  const forms: LinkForms = new Set();
  return fc.asyncProperty(walkCaseArbitrary, async (c) => {
    const store = await arena.openTwinStore({ products: c.products });
    try {
      await checkWalk(drainingPager(store, forms), pageSize(c.perPage), c.products);
    } finally {
      await store.close();
    }
  });
}

/**
 * The walk on the live catalogue, which cannot be arranged: only page sizes
 * vary, from the smallest whose walk fits one case's share of the budget.
 * Undefined when even 200 per page does not fit.
 */
export function liveWalkProperty(pager: Pager, catalogue: number, perCase: number): fc.IAsyncProperty<[number | undefined]> | undefined {
  const fits = (sent: number | undefined) => walkCost(catalogue, pageSize(sent)) <= perCase;
  const smallest = Array.from({ length: maxPerPage }, (_, i) => i + 1).find((n) => fits(n));
  if (smallest === undefined) return undefined;
  const sizes = fc.integer({ min: smallest, max: maxPerPage });
  const arbitrary = fits(undefined) ? fc.option(sizes, { nil: undefined }) : sizes;
  return fc.asyncProperty(arbitrary, async (sent) => {
    try {
      await checkWalk(pager, pageSize(sent), undefined);
    } catch (error) {
      if (!(error instanceof OutOfBudget)) throw error;
    }
  });
}

export function outOfRangeProperty(arena: StoreArena): fc.IAsyncProperty<[OutOfRangeAsk, number]> {
  const sizes = fc.oneof(fc.constantFrom(0, 1, maxPerPage, maxPerPage + 1), fc.integer({ min: 0, max: 450 }));
  const forms: LinkForms = new Set();
  return fc.asyncProperty(outOfRangeArbitrary, sizes, async (ask, products) => {
    const store = await arena.openTwinStore({ products });
    try {
      await checkOutOfRange(drainingPager(store, forms), ask, products);
    } finally {
      await store.close();
    }
  });
}

export function liveOutOfRangeProperty(pager: Pager): fc.IAsyncProperty<[OutOfRangeAsk]> {
  return fc.asyncProperty(outOfRangeArbitrary, async (ask) => {
    try {
      await checkOutOfRange(pager, ask, undefined);
    } catch (error) {
      if (!(error instanceof OutOfBudget)) throw error;
    }
  });
}

/**
 * Paging while products are created and deleted between pages. The twin
 * lists by ascending id and gives every new product an id above all others;
 * a page is an offset into the collection as it is at that request. So a
 * delete moves the items after it one place forward, a create adds at the end,
 * and no item ever moves back. What a client can rely on, and all this checks:
 * - the walk (Link next, or iterateProducts) ends, without throwing; a next
 *   page that deletes emptied answers 404 "Last page is N" with N the last page then;
 * - X-Total-Count of each page is the collection's size at that request;
 * - every item a page gives was in the store at that request;
 * - ids come strictly ascending, so none comes twice, deletes or not;
 * - an item at the same offset at every request (present throughout, no
 *   smaller id deleted meanwhile) is seen;
 * - when nothing was deleted while walking, the walk gives exactly the
 *   collection of the last request.
 * Not promised, so not checked: an item behind which deletes happened may be
 * skipped, and items created after the last request are not seen.
 */
export function concurrentWritesProperty(arena: StoreArena): fc.IAsyncProperty<[ConcurrentCase]> {
  return fc.asyncProperty(concurrentCaseArbitrary, async (c) => {
    const store = await arena.openTwinStore({ products: c.products });
    try {
      const held: number[] = [];
      const requests: ListRequest[] = [];
      let recording = false;
      const record = (ex: Exchange) => {
        const url = new URL(ex.request.url);
        if (!recording || ex.request.method !== 'GET' || !ex.response || !url.pathname.endsWith('/products')) return;
        const { status, headers, body } = ex.response;
        requests.push({ page: Number(url.searchParams.get('page') ?? '1'), status, total: headers['x-total-count'], body: safeJson(body), held: [...held] });
      };
      const client = store.client({ pace: true, onExchange: record });
      for await (const product of client.iterateProducts({ fields: 'id', per_page: maxPerPage })) held.push(product.id);
      recording = true;
      const yielded = await walkWhileWriting(client, c, held, () => requests.length);
      checkConcurrentWalk(requests, yielded, c.perPage);
    } finally {
      await store.close();
    }
  });
}

/**
 * The client's walk with the case's writes interleaved at their pages: one loop, since where a write lands is what the case is about.
 * Both walks (by Link and by the iterator) are kept together, as they share the case's writes and the guard against a walk that never ends.
 */
async function walkWhileWriting(client: StoreClient, c: ConcurrentCase, held: number[], requestCount: () => number): Promise<number[]> {
  const creates = c.gaps.flat().filter((w) => w.op === 'create').length;
  const yielded: number[] = [];
  let gap = 0;
  const afterPage = async () => {
    for (const w of c.gaps[gap++] ?? []) {
      if (w.op === 'create') {
        const { id } = await client.createProduct({ name: 'paging during writes' });
        if (held.length > 0 && id <= held.at(-1)!)
          broken('store.products.list', `new product ${id} is not above every id (${held.at(-1)}): the twin's ids must ascend.`);
        held.push(id);
      } else if (held.length > 0) {
        const [id] = held.splice(w.pick % held.length, 1);
        await client.deleteProduct(id!);
      }
    }
  };
  // Every page but the last gives an item, so more requests than items ever held means it does not end.
  const guard = () => {
    if (requestCount() > c.products + creates + 2)
      broken(FOLLOW, `the walk did not end after ${requestCount()} requests for ${c.products + creates} products ever.`);
  };
  if (c.via === 'links') {
    let res = await client.send({ method: 'GET', path: '/products', query: { fields: 'id', per_page: c.perPage }, retry: false });
    while (!isLastPage404(res)) {
      if (res.status !== 200) broken(FOLLOW, `GET ${pathOf(res.url)} answered ${res.status} while paging during writes: ${res.text.slice(0, 200)}`);
      yielded.push(...res.json<{ id: number }[]>().map((p) => p.id));
      if (res.links.next === undefined) break;
      guard();
      await afterPage();
      res = await client.send({ method: 'GET', url: res.links.next, retry: false });
    }
    return yielded;
  }
  try {
    for await (const product of client.iterateProducts({ fields: 'id', per_page: c.perPage })) {
      yielded.push(product.id);
      guard();
      // Every page before the last is full, so a multiple of per_page is a page boundary.
      if (yielded.length % c.perPage === 0) await afterPage();
    }
  } catch (error) {
    if (error instanceof RuleBroken) throw error;
    broken(FOLLOW, `iterateProducts threw while products changed between pages: ${error instanceof Error ? error.message : String(error)}`);
  }
  return yielded;
}
