/**
 * What the store pagination properties hold a provider to (store.pagination.*): a
 * walk's pages (every item once, in a stable order, with X-Total-Count, page
 * sizes and Link rels that agree), out-of-range answers, and what offset paging
 * over ascending ids can promise a client during writes.
 */
import { broken } from '../../../src/testing/ruleTest.ts';
import type { RuleId } from '../../../src/rules/catalogues.ts';
import { isDeepStrictEqual } from 'node:util';
import type { StoreClient } from '../../../src/clients/store/StoreClient.ts';
import type { StoreResponse } from '../../../src/clients/store/types.ts';
import { STORE_CONTRACT, type LinkRel } from '../../../src/rules/storeContract.ts';
import { STORE_RULES } from '../../../src/rules/storeRules.ts';
import { expectLinkEntriesValid, parseLinkStrict, pathOf, totalCountOf } from '../../../suites/fixtures/storeChecks.ts';
import type { RequestBudget } from '../../support/liveBudget.ts';
import { isObservedOnLive, type ObservationSink } from '../../support/observation.ts';

/** A page or page size outside what the contract serves, and which bound it crosses. */
export type OutOfRangeAsk =
  | { readonly param: 'per_page'; readonly value: string; readonly over: true }
  | { readonly param: 'page' | 'per_page'; readonly value: string; readonly over: false };

const { defaultPerPage, maxPerPage } = STORE_CONTRACT;

export const FOLLOW = 'store.pagination.follow-links';

export const RELS = 'store.pagination.link-rels-presence';

export const FULL_URLS = 'store.pagination.link-full-urls';

export const TOTAL = 'store.pagination.total-count';

export const DEFAULT_SIZE = 'store.pagination.default-page-size';

export const MAX_SIZE = 'store.pagination.max-page-size';

export const OVER_MAX = 'store.pagination.per-page-over-max';

export const INVALID = 'store.pagination.invalid-page-400';

export const PAST_LAST = 'store.pagination.past-last-page-404';

/**
 * Link headers already checked strictly, by form (digits blanked). The suites'
 * strict checks cost a Playwright step per expect, tens of thousands over a
 * run; headers of one form differ only in page numbers, store ids and sizes,
 * so each form is checked once and the rest are read with the client's parser.
 */
export type LinkForms = Set<string>;

/** What a walk sends with: a client and, on live, the request budget and the observation sink. */
export interface Pager {
  readonly client: StoreClient;
  readonly budget?: RequestBudget | undefined;
  readonly observe?: ObservationSink | undefined;
  /** Link header forms already checked strictly in this property run (see readPage). */
  readonly forms: LinkForms;
  /** Twin: runs before every request (see drainingPager). */
  readonly beforeRequest?: (() => Promise<void>) | undefined;
}

/** Thrown when the live budget refuses a request: the case stops, inconclusive. */
export class OutOfBudget extends Error {}

function broke(pager: Pager, rule: RuleId, message: string): void {
  if (pager.observe && isObservedOnLive(rule)) pager.observe(rule, message);
  else broken(rule, message);
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function get(pager: Pager, target: { url: string } | { query: Record<string, string | number | undefined> }): Promise<StoreResponse> {
  if (pager.budget && !pager.budget.take(1)) throw new OutOfBudget('the live request budget is spent');
  await pager.beforeRequest?.();
  const where = 'url' in target ? { url: target.url } : { path: '/products', query: target.query };
  // No per-request retry setting: the arena's clients decide (never on the twin; a 429 on live, paced)
  return pager.client.send({ method: 'GET', ...where });
}

/** per_page as sent (undefined: absent) and the size that must be served. */
export interface PageSize {
  readonly sent: number | undefined;
  readonly served: number;
}

export function pageSize(sent: number | undefined): PageSize {
  return { sent, served: sent === undefined ? defaultPerPage : Math.min(sent, maxPerPage) };
}

// Only ids: pages of 200 stay small on the twin and cheap on live.
const queryOf = (size: PageSize) => ({ fields: 'id', per_page: size.sent });

const EMPTY_404 = { code: 404, message: 'Not Found', description: 'Last page is 0' };

export function isLastPage404(res: StoreResponse): boolean {
  const description = (safeJson(res.text) as { description?: unknown } | undefined)?.description;
  return res.status === 404 && typeof description === 'string' && /^Last page is \d+$/.test(description);
}

/** Page 1 of an empty products collection: 404 "Last page is 0" (ASSUMPTIONS.md, Pagination). */
function checkEmptyAnswer(pager: Pager, res: StoreResponse, where: string): void {
  if (res.status !== 404 || !isDeepStrictEqual(safeJson(res.text), EMPTY_404)) {
    broke(
      pager,
      PAST_LAST,
      `${where}: page 1 of the empty collection answered ${res.status} ${res.text.slice(0, 200)}; expected 404 ${JSON.stringify(EMPTY_404)}.`,
    );
  }
}

interface WalkedPage {
  readonly ids: readonly number[];
  readonly total: number;
  readonly links: Partial<Record<LinkRel, string>>;
}

function readPage(pager: Pager, res: StoreResponse, where: string): WalkedPage {
  if (res.status !== 200) broken(FOLLOW, `${where}: GET ${pathOf(res.url)} answered ${res.status}, expected 200. Body: ${res.text.slice(0, 200)}`);
  const body = safeJson(res.text);
  if (!Array.isArray(body) || !body.every((item) => Number.isInteger((item as { id?: unknown } | null)?.id))) {
    broken(FOLLOW, `${where}: the page is not a JSON array of items with ids: ${res.text.slice(0, 200)}`);
  }
  // The client read a well-formed X-Total-Count; only a missing or bad one needs the suites' check (which then fails).
  const total = res.totalCount ?? totalCountOf(res, STORE_RULES[TOTAL]!);
  const header = res.headers['link'];
  let links: Partial<Record<LinkRel, string>> = res.links;
  const form = header?.replace(/\d+/g, '#');
  if (header !== undefined && form !== undefined && !pager.forms.has(form)) {
    const fullUrls = STORE_RULES[FULL_URLS]!;
    links = expectLinkEntriesValid(parseLinkStrict(header, fullUrls), fullUrls);
    pager.forms.add(form);
  }
  return { ids: body.map((item: { id: number }) => item.id), total, links };
}

const lastPageOf = (total: number, size: PageSize) => Math.max(1, Math.ceil(total / size.served));

/** Page 1, then every Link next exactly as given; `empty` when page 1 answered 404 "Last page is N". */
async function walkLinks(pager: Pager, size: PageSize, where: string): Promise<{ pages: WalkedPage[] } | { empty: StoreResponse }> {
  const first = await get(pager, { query: queryOf(size) });
  if (isLastPage404(first)) return { empty: first };
  const pages = [readPage(pager, first, `${where}, page 1`)];
  const bound = lastPageOf(pages[0]!.total, size) + 1;
  for (let next = pages[0]!.links.next; next !== undefined; next = pages.at(-1)!.links.next) {
    if (pages.length >= bound) broken(FOLLOW, `${where}: next did not end after ${pages.length} pages; X-Total-Count ${pages[0]!.total} makes ${bound - 1}.`);
    pages.push(readPage(pager, await get(pager, { url: next }), `${where}, page ${pages.length + 1} (${pathOf(next)})`));
  }
  return { pages };
}

const sizesOf = (pages: readonly WalkedPage[]) => pages.map((p) => p.ids.length).join(', ');

/**
 * Everything one walk must show, in the order of what breaks first: each item
 * once and all of them (a wrong page start shows here, not as a page size),
 * the totals, the page sizes, then which rels each page carries.
 */
function checkPages(pager: Pager, pages: readonly WalkedPage[], size: PageSize, arranged: number | undefined, where: string): void {
  const ids = pages.flatMap((p) => p.ids);
  const reported = arranged ?? pages[0]!.total;
  const seen = new Set<number>();
  const twice = ids.filter((id) => seen.has(id) || !seen.add(id));
  const shape = `${pages.length} pages of sizes ${sizesOf(pages)}`;
  if (twice.length > 0) broken(FOLLOW, `${where}: following next visited ${twice.length} item(s) twice (ids ${twice.slice(0, 5).join(', ')}) in ${shape}.`);
  if (ids.length !== reported) {
    broken(
      FOLLOW,
      `${where}: following next visited ${ids.length} items in ${shape}; ${arranged === undefined ? 'X-Total-Count says' : 'the store holds'} ${reported}.`,
    );
  }
  for (const [i, page] of pages.entries()) {
    if (page.total !== reported) broken(TOTAL, `${where}, page ${i + 1}: X-Total-Count is ${page.total}, but the walk visits ${reported} items.`);
  }
  const sizeRule = size.sent === undefined ? DEFAULT_SIZE : MAX_SIZE;
  let before = 0;
  for (const [i, page] of pages.entries()) {
    const expected = Math.min(size.served, reported - before);
    if (page.ids.length !== expected) broken(sizeRule, `${where}, page ${i + 1}: ${page.ids.length} items, expected ${expected} (${shape}).`);
    before += page.ids.length;
  }
  const lastPage = lastPageOf(reported, size);
  for (const [i, page] of pages.entries()) {
    const k = i + 1;
    const want: Record<LinkRel, boolean> = { first: k > 1, prev: k > 1, next: k < lastPage, last: k < lastPage };
    for (const rel of STORE_CONTRACT.linkRels) {
      if ((page.links[rel] !== undefined) !== want[rel]) {
        broke(
          pager,
          RELS,
          `${where}, page ${k} of ${lastPage}: rel="${rel}" is ${want[rel] ? 'missing' : 'present'}; first and prev come after page 1, next and last before the last page.`,
        );
      }
    }
  }
}

/**
 * rel="last" of page 1: the page number its URL names is the field notes' form (link-rels-presence, observed on
 * live); what it answers is the contract's (follow-links, on every target): the page next ends on, the same items,
 * and no next.
 */
async function checkLastLink(pager: Pager, pages: readonly WalkedPage[], where: string): Promise<void> {
  const url = pages[0]!.links.last;
  if (pages.length < 2 || url === undefined) return;
  const named = new URL(url).searchParams.get('page');
  if (named !== String(pages.length)) {
    broke(pager, RELS, `${where}: rel="last" of page 1 (${pathOf(url)}) names page ${named ?? '(none)'}; next ends on page ${pages.length}.`);
  }
  const res = await get(pager, { url });
  const final = pages.at(-1)!;
  const page = res.status === 200 ? readPage(pager, res, `${where}, rel="last"`) : undefined;
  if (!page || !isDeepStrictEqual(page.ids, final.ids) || page.links.next !== undefined) {
    const got = page ? `${page.ids.length} items${page.links.next ? ' and a next' : ''}` : `${res.status}`;
    broken(FOLLOW, `${where}: rel="last" of page 1 (${pathOf(url)}) answers ${got}, not page ${pages.length} where next ends (${final.ids.length} items).`);
  }
}

/**
 * One whole walk and its checks, then a second walk that must repeat the
 * order. `arranged`: the twin store's size; undefined on live, where page 1's
 * X-Total-Count is what the walk must match.
 */
export async function checkWalk(pager: Pager, size: PageSize, arranged: number | undefined): Promise<void> {
  const where = `${arranged ?? 'the catalogue'} products, ${size.sent === undefined ? `no per_page (${defaultPerPage})` : `per_page=${size.sent}`}`;
  const walk = await walkLinks(pager, size, where);
  if ('empty' in walk) {
    if (arranged !== undefined && arranged > 0) broken(FOLLOW, `${where}: page 1 answered ${walk.empty.status} ${walk.empty.text.slice(0, 200)}.`);
    checkEmptyAnswer(pager, walk.empty, where);
    return;
  }
  if (arranged === 0) broke(pager, PAST_LAST, `${where}: page 1 of the empty collection answered 200; expected 404 ${JSON.stringify(EMPTY_404)}.`);
  checkPages(pager, walk.pages, size, arranged, where);
  await checkLastLink(pager, walk.pages, where);
  const again = await walkLinks(pager, size, `${where}, second walk`);
  const first = walk.pages.flatMap((p) => p.ids);
  const second = 'empty' in again ? [] : again.pages.flatMap((p) => p.ids);
  const at = first.findIndex((id, i) => second[i] !== id);
  if (at >= 0 || second.length !== first.length) {
    broken(
      FOLLOW,
      `${where}: a second walk differs from the first at item ${at >= 0 ? at + 1 : first.length + 1} (${second.length} items against ${first.length}): the order is not stable.`,
    );
  }
}

/** Live: the catalogue's size (one request), to choose page sizes whose walks fit the budget. */
export async function catalogueSize(pager: Pager): Promise<number> {
  const res = await get(pager, { query: { fields: 'id', per_page: 1 } });
  if (isLastPage404(res)) return 0;
  return readPage(pager, res, 'the catalogue, per_page=1').total;
}

/** Requests one walk costs: two walks and the rel="last" page. */
export function walkCost(total: number, size: PageSize): number {
  const pages = lastPageOf(total, size);
  return 2 * pages + (pages > 1 ? 1 : 0);
}

/** One request asking out of range, and what the twin documents for it. */
export async function checkOutOfRange(pager: Pager, ask: OutOfRangeAsk, arranged: number | undefined): Promise<void> {
  const res = await get(pager, { query: { fields: 'id', [ask.param]: ask.value } });
  const where = `${arranged ?? 'the catalogue'} products, ${ask.param}=${JSON.stringify(ask.value)}`;
  if (!ask.over) {
    const expected = { code: 400, message: 'Bad Request', description: `${ask.param} must be a positive integer` };
    if (res.status !== 400 || !isDeepStrictEqual(safeJson(res.text), expected)) {
      broke(pager, INVALID, `${where}: answered ${res.status} ${res.text.slice(0, 200)}; expected 400 ${JSON.stringify(expected)}.`);
    }
    return;
  }
  if (arranged === 0 || (arranged === undefined && isLastPage404(res))) return checkEmptyAnswer(pager, res, where);
  if (res.status !== 200)
    return broke(pager, OVER_MAX, `${where}: answered ${res.status} ${res.text.slice(0, 200)}; expected 200 with ${maxPerPage} per page.`);
  const page = readPage(pager, res, where);
  const total = arranged ?? page.total;
  const items = Math.min(maxPerPage, total);
  if (page.ids.length !== items || (page.links.next !== undefined) !== total > maxPerPage) {
    broke(
      pager,
      OVER_MAX,
      `${where}: page 1 holds ${page.ids.length} items ${page.links.next ? 'with' : 'without'} a next; served as ${maxPerPage} it holds ${items} ${total > maxPerPage ? 'with' : 'without'} one.`,
    );
  }
}

/** One list request as the client saw it, with the collection the model says the store held then. */
export interface ListRequest {
  readonly page: number;
  readonly status: number;
  readonly total: string | undefined;
  readonly body: unknown;
  readonly held: readonly number[];
}

export function checkConcurrentWalk(requests: readonly ListRequest[], yielded: readonly number[], perPage: number): void {
  for (const [i, r] of requests.entries()) {
    const where = `request ${i + 1} (page ${r.page}, the store holding ${r.held.length})`;
    const last = Math.ceil(r.held.length / perPage);
    if (r.status === 404) {
      const description = (r.body as { description?: unknown } | undefined)?.description;
      if (description !== `Last page is ${last}` || r.page <= last)
        broken(PAST_LAST, `${where}: 404 ${JSON.stringify(description)}, expected "Last page is ${last}".`);
      continue;
    }
    if (r.total !== String(r.held.length)) broken(TOTAL, `${where}: X-Total-Count ${r.total}, not the size of the collection at that request.`);
    const stray = (r.body as { id: number }[]).map((p) => p.id).filter((id) => !r.held.includes(id));
    if (stray.length > 0) broken(FOLLOW, `${where}: gave ids ${stray.join(', ')}, not in the store at that request.`);
  }
  const back = yielded.findIndex((id, i) => i > 0 && id <= yielded[i - 1]!);
  if (back > 0)
    broken(
      FOLLOW,
      `item ${back + 1} (id ${yielded[back]}) comes after id ${yielded[back - 1]}: new ids go at the end and deletes only move items forward, so ids must ascend.`,
    );
  const held = requests.map((r) => r.held);
  const pinned = (held[0] ?? []).filter((id, q) => held.every((h) => h[q] === id));
  const missed = pinned.filter((id) => !yielded.includes(id));
  if (missed.length > 0) broken(FOLLOW, `ids ${missed.join(', ')} kept their offset at every request, yet the walk never gave them.`);
  const appendsOnly = held.every((h, i) => i === 0 || held[i - 1]!.every((id, q) => h[q] === id));
  if (appendsOnly && !isDeepStrictEqual(yielded, held.at(-1) ?? [])) {
    broken(
      FOLLOW,
      `nothing was deleted while walking, yet the walk gave ${yielded.length} items, not the ${held.at(-1)?.length ?? 0} the store held at the last request.`,
    );
  }
}
