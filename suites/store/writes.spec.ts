import { expect, test, verifies, type StoreUnderTest } from '../fixtures/storeFixtures.ts';
import { expectLocalized, expectStatus, jsonOf, ownCategory, pathOf, totalCountOf, uniqueName } from '../fixtures/storeChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import type { StoreRequest, StoreResponse } from '../../src/clients/store/types.ts';

// Writes reflected: a write's answer, and every later read, say what was written, as the provider keeps it
// (Localized properties: a plain string applies to every language, an object sets one value per language).

type Collection = 'products' | 'categories';

/** A localized name as the provider keeps what was sent: a string in every language of the store, an object's values as sent. */
function expectKeptName(value: unknown, sent: string | Record<string, string>, store: StoreUnderTest, rule: Rule, where: string): void {
  const kept = expectLocalized(value, `${where}: name`, rule);
  const wanted = typeof sent === 'string' ? Object.fromEntries(store.languages.map((code) => [code, sent])) : sent;
  for (const [code, text] of Object.entries(wanted)) {
    expect(kept[code], says(rule, `${where}: name.${code} is ${JSON.stringify(kept[code])}, not the ${JSON.stringify(text)} written`)).toBe(text);
  }
}

/** A name in each of the store's languages, told apart. */
function namePerLanguage(store: StoreUnderTest, prefix: string): Record<string, string> {
  const name = uniqueName(prefix);
  return Object.fromEntries(store.languages.map((code) => [code, `${name} [${code}]`]));
}

function idOf(res: StoreResponse, rule: Rule): number {
  const id = (jsonOf(res, rule) as { id?: unknown }).id;
  expect(typeof id, says(rule, `${res.method} ${res.url} answered no numeric id: ${res.text.slice(0, 200)}`)).toBe('number');
  return id as number;
}

async function readBack(store: StoreUnderTest, collection: Collection, id: number, rule: Rule): Promise<unknown> {
  const res = await store.send({ method: 'GET', path: `/${collection}/${id}` });
  expectStatus(res, 200, rule);
  return (jsonOf(res, rule) as { name?: unknown }).name;
}

const twoXX = (status: number) => status >= 200 && status < 300;

for (const [collection, one, as] of [
  ['products', 'product', 'string'],
  ['categories', 'category', 'object'],
] as const) {
  test(
    ...verifies('store.writes.create-reflected', `a ${one} created with its name as ${as === 'string' ? 'a string' : 'an object'}`, async ({ store, rule }) => {
      const name = as === 'string' ? uniqueName(`Reflected ${collection}`) : namePerLanguage(store, `Reflected ${collection}`);
      const created = await store.send({ method: 'POST', path: `/${collection}`, json: { name } });
      // Which 2xx a create answers, the contract leaves open.
      expect(twoXX(created.status), says(rule, `creating answered ${created.status}: ${created.text.slice(0, 200)}`)).toBe(true);
      const id = idOf(created, rule);
      store.track(collection, id);
      expectKeptName((jsonOf(created, rule) as { name?: unknown }).name, name, store, rule, `the answer to POST /${collection}`);
      expectKeptName(await readBack(store, collection, id, rule), name, store, rule, `GET /${collection}/${id} after the create`);
    }),
  );
}

test(
  ...verifies('store.writes.update-reflected', 'a category renamed with an object, a product renamed with a string', async ({ store, rule }) => {
    const category = await ownCategory(store, rule);
    const perLanguage = namePerLanguage(store, 'Renamed category');
    const updated = await store.send({ method: 'PUT', path: `/categories/${category}`, json: { name: perLanguage } });
    expectStatus(updated, 200, rule);
    expectKeptName((jsonOf(updated, rule) as { name?: unknown }).name, perLanguage, store, rule, 'the answer to PUT /categories/{id}');
    expectKeptName(await readBack(store, 'categories', category, rule), perLanguage, store, rule, `GET /categories/${category} after the update`);

    const product = await store.client.createProduct({ name: uniqueName('To rename') });
    store.track('products', product.id);
    const renamed = uniqueName('Renamed product');
    const answer = await store.client.updateProduct(product.id, { name: renamed });
    expectKeptName(answer.name, renamed, store, rule, 'the answer to PUT /products/{id}');
    expectKeptName(await readBack(store, 'products', product.id, rule), renamed, store, rule, `GET /products/${product.id} after the update`);
  }),
);

test(
  ...verifies('store.writes.delete-gone', 'a deleted category and a deleted product: GET, HEAD and the listing', async ({ store, rule }) => {
    const category = await ownCategory(store, rule);
    await expectDeleted(store, 'categories', category, rule);
    const listed: number[] = [];
    for await (const one of store.client.iterateCategories({ per_page: 200 })) listed.push(one.id);
    precondition(rule, store.target, listed.length > 0, 'at least one other category, for a listing to look in');
    expect(listed, says(rule, `the listing still holds category ${category} after its DELETE`)).not.toContain(category);

    const product = await store.client.createProduct({ name: uniqueName('To delete') });
    store.track('products', product.id);
    await expectDeleted(store, 'products', product.id, rule);
    // The listing from the deleted id on (since_id is exclusive): one request, whatever the catalogue's size. An empty
    // page may be answered 404, as the field notes' provider does, or 200 [] (the contract leaves it open).
    const after = await store.send({ method: 'GET', path: '/products', query: { since_id: product.id - 1, per_page: 1 } });
    expectStatus(after, [200, 404], rule);
    const ids = after.status === 404 ? [] : (jsonOf(after, rule) as { id?: unknown }[]).map((p) => p.id);
    expect(ids, says(rule, `the listing still holds product ${product.id} after its DELETE`)).not.toContain(product.id);
  }),
);

/** DELETE answered 2xx, then GET and HEAD of the resource answer 4xx (not 429): gone for every reader. */
async function expectDeleted(store: StoreUnderTest, collection: Collection, id: number, rule: Rule): Promise<void> {
  const deleted = await store.send({ method: 'DELETE', path: `/${collection}/${id}` });
  expect(twoXX(deleted.status), says(rule, `DELETE /${collection}/${id} answered ${deleted.status}: ${deleted.text.slice(0, 200)}`)).toBe(true);
  for (const method of ['GET', 'HEAD'] as const) {
    const res = await store.send({ method, path: `/${collection}/${id}`, retry: false });
    expect(
      res.status >= 400 && res.status < 500 && res.status !== 429,
      says(rule, `${method} /${collection}/${id} after its DELETE answered ${res.status}: it is not gone`),
    ).toBe(true);
  }
}

// A write does what it says and nothing else. Each test below reads back, besides what the write asked for, the rest:
// the collection's X-Total-Count, the resource's other members, its timestamps, a neighbouring resource. On live this
// assumes the allow-listed sandbox has no other writer during the run (docs/live.md): a count moved by someone else
// would read as the write's.

type Members = Record<string, unknown>;

/** The store's clock: the twin's (virtual, moved by the test) or the wall clock on live and record (a replay's answers are recorded: no wait). */
const nowOn = (store: StoreUnderTest) => (store.twin ? store.twin.clock.now() : Date.now());
const waitOn = (store: StoreUnderTest, ms: number) =>
  ms <= 0 || store.target === 'replay' ? Promise.resolve() : store.twin ? store.twin.advance(ms) : new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The members of a category the contract shows (Category); the others are the field notes'. */
const CATEGORY_MEMBERS = ['id', 'name', 'description', 'handle', 'parent', 'subcategories', 'created_at', 'updated_at'] as const;

/**
 * X-Total-Count of a collection, read with per_page=1. An empty collection may answer 404 "Last page is 0", as the field
 * notes' service does (or 200 []): it counts 0.
 */
async function totalOf(store: StoreUnderTest, collection: Collection, rule: Rule): Promise<number> {
  const res = await store.send({ method: 'GET', path: `/${collection}`, query: { per_page: 1 } });
  if (res.status === 404 && /Last page is 0/.test(res.text) && res.headers['x-total-count'] === undefined) return 0;
  expectStatus(res, 200, rule);
  return totalCountOf(res, rule);
}

async function readMembers(store: StoreUnderTest, collection: Collection, id: number, rule: Rule): Promise<Members> {
  const res = await store.send({ method: 'GET', path: `/${collection}/${id}` });
  expectStatus(res, 200, rule);
  const body = jsonOf(res, rule);
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), says(rule, `GET /${collection}/${id} answered no object`)).toBe(true);
  return body as Members;
}

/** A created record's id, tracked so the fixture deletes it after the test. */
async function created(store: StoreUnderTest, collection: Collection, json: Members, rule: Rule): Promise<number> {
  const res = await store.send({ method: 'POST', path: `/${collection}`, json });
  expect(twoXX(res.status), says(rule, `creating in /${collection} answered ${res.status}: ${res.text.slice(0, 200)}`)).toBe(true);
  const id = idOf(res, rule);
  store.track(collection, id);
  return id;
}

/** An id list in a stable order: the contract gives subcategories no order. */
const unordered = (value: unknown) => (Array.isArray(value) ? [...value].sort((a, b) => String(a).localeCompare(String(b))) : value);

/** Each of `members` reads back as it was. */
function expectMembersAsBefore(before: Members, after: Members, members: readonly string[], rule: Rule, where: string): void {
  for (const member of members) {
    expect(
      unordered(after[member]),
      says(rule, `${where}: ${member} was ${JSON.stringify(before[member])} and is now ${JSON.stringify(after[member])}`),
    ).toEqual(unordered(before[member]));
  }
}

/** The instant of a store timestamp (2012-02-19T17:34:36+0000), or undefined when it is none. */
function instantOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(time) ? undefined : time;
}

/**
 * created_at does not move; updated_at does not go back, and after an update that changed the record a second or more
 * after its last write (timestamps count whole seconds), it moves forward.
 */
function expectTimestampsKept(before: Members, after: Members, rule: Rule, where: string, changed = false): void {
  if (before.created_at !== undefined) {
    expect(instantOf(after.created_at), says(rule, `${where}: created_at moved from ${String(before.created_at)} to ${String(after.created_at)}`)).toBe(
      instantOf(before.created_at),
    );
  }
  const [was, is] = [instantOf(before.updated_at), instantOf(after.updated_at)];
  if (was !== undefined) {
    expect(is !== undefined && is >= was, says(rule, `${where}: updated_at went from ${String(before.updated_at)} back to ${String(after.updated_at)}`)).toBe(
      true,
    );
    if (changed) expect(is! > was, says(rule, `${where}: updated_at stayed ${String(after.updated_at)} through an update that changed the record`)).toBe(true);
  }
}

for (const [collection, one, as] of [
  ['products', 'product', 'string'],
  ['categories', 'category', 'object'],
] as const) {
  test(
    ...verifies('store.writes.create-adds-one', `a ${one}: X-Total-Count one more, the new record's timestamps in order`, async ({ store, rule }) => {
      const before = await totalOf(store, collection, rule);
      const name = as === 'string' ? uniqueName(`One ${one}`) : namePerLanguage(store, `One ${one}`);
      const id = await created(store, collection, { name }, rule);
      const record = await readMembers(store, collection, id, rule);
      const [createdAt, updatedAt] = [instantOf(record.created_at), instantOf(record.updated_at)];
      if (createdAt !== undefined && updatedAt !== undefined) {
        expect(
          createdAt <= updatedAt,
          says(rule, `the new ${one}'s created_at ${String(record.created_at)} is after its updated_at ${String(record.updated_at)}`),
        ).toBe(true);
      }
      // Counted once the new record has been read back: what the create did beside it has had that long to show.
      const after = await totalOf(store, collection, rule);
      expect(after, says(rule, `X-Total-Count of /${collection} went from ${before} to ${after} for one create`)).toBe(before + 1);
    }),
  );
}

test(
  ...verifies(
    'store.writes.update-leaves-the-rest',
    'a category replaced with a new name: its other members, its subcategory, the count',
    async ({ store, rule }) => {
      const parent = await ownCategory(store, rule);
      const child = await created(store, 'categories', { name: uniqueName('Own subcategory'), parent }, rule);
      const total = await totalOf(store, 'categories', rule);
      const before = await readMembers(store, 'categories', parent, rule);
      const childBefore = await readMembers(store, 'categories', child, rule);
      // A replacement: the members the contract shows a category writing, as they were, and a new name. A provider that
      // replaces the whole resource and one that updates what it was sent must then agree on every member.
      const name = namePerLanguage(store, 'Replaced category');
      // A second after the create: a timestamp moved by the update shows (they count whole seconds).
      await waitOn(store, 1000);
      const put = await store.send({
        method: 'PUT',
        path: `/categories/${parent}`,
        json: { name, description: before.description, handle: before.handle, parent: before.parent },
      });
      expectStatus(put, 200, rule);
      const after = await readMembers(store, 'categories', parent, rule);
      const where = `GET /categories/${parent} after its PUT`;
      expectKeptName(after.name, name, store, rule, where);
      expectMembersAsBefore(before, after, ['id', 'description', 'handle', 'parent', 'subcategories'], rule, where);
      expectTimestampsKept(before, after, rule, where, true);
      expectMembersAsBefore(childBefore, await readMembers(store, 'categories', child, rule), CATEGORY_MEMBERS, rule, `its subcategory ${child}, not written`);
      const totalAfter = await totalOf(store, 'categories', rule);
      expect(totalAfter, says(rule, `X-Total-Count of /categories went from ${total} to ${totalAfter} for one update`)).toBe(total);
    },
  ),
);

test(
  ...verifies(
    'store.writes.update-leaves-the-rest',
    'a product renamed through StoreClient.updateProduct: its id, timestamps and the count',
    async ({ store, rule }) => {
      const product = await store.client.createProduct({ name: uniqueName('To rename only') });
      store.track('products', product.id);
      const total = await totalOf(store, 'products', rule);
      const before = await readMembers(store, 'products', product.id, rule);
      await waitOn(store, 1000);
      await store.client.updateProduct(product.id, { name: uniqueName('Renamed only') });
      const after = await readMembers(store, 'products', product.id, rule);
      // The contract shows no product member but name, and lets a PUT replace the rest: only these are compared.
      expectMembersAsBefore(before, after, ['id'], rule, `GET /products/${product.id} after its PUT`);
      expectTimestampsKept(before, after, rule, `GET /products/${product.id} after its PUT`, true);
      const totalAfter = await totalOf(store, 'products', rule);
      expect(totalAfter, says(rule, `X-Total-Count of /products went from ${total} to ${totalAfter} for one update`)).toBe(total);
    },
  ),
);

for (const collection of ['products', 'categories'] as const) {
  test(
    ...verifies('store.writes.delete-removes-one', `in /${collection}: X-Total-Count one less, a neighbour as it was`, async ({ store, rule }) => {
      const kept = await created(store, collection, { name: uniqueName('Kept neighbour') }, rule);
      const doomed = await created(store, collection, { name: uniqueName('Deleted one') }, rule);
      const total = await totalOf(store, collection, rule);
      const neighbour = await readMembers(store, collection, kept, rule);
      const deleted = await store.send({ method: 'DELETE', path: `/${collection}/${doomed}` });
      expect(twoXX(deleted.status), says(rule, `DELETE /${collection}/${doomed} answered ${deleted.status}: ${deleted.text.slice(0, 200)}`)).toBe(true);
      const after = await totalOf(store, collection, rule);
      expect(after, says(rule, `X-Total-Count of /${collection} went from ${total} to ${after} for one DELETE`)).toBe(total - 1);
      // Not written at all: every member as it was.
      const again = await readMembers(store, collection, kept, rule);
      expectMembersAsBefore(neighbour, again, Object.keys({ ...neighbour, ...again }), rule, `${collection} ${kept}, not deleted`);
    }),
  );
}

/** The JSON of a body, or undefined when it is none: what a provider answers here is judged elsewhere. */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A write answered as refused: its status, and whatever it made tracked for deletion if the provider made it anyway. */
function expectRefused(res: StoreResponse, status: number, rule: Rule, store: StoreUnderTest, collection: Collection): void {
  if (twoXX(res.status) && res.method === 'POST') {
    const id = (parsedOrUndefined(res.text) as { id?: unknown } | undefined)?.id;
    if (typeof id === 'number') store.track(collection, id);
  }
  expectStatus(res, status, rule);
}

/** What a refused write must leave as it was: a category of the test's own (the one the refused updates name) and the product count. */
interface Witness {
  readonly category: number;
  /** A unique name for a refused create, remembered: a provider that made the product anyway has it found and deleted. */
  name(prefix: string): string;
  /** Reads both back: the count `made` more than before (creates the provider accepted on purpose), the category as it was. */
  unchanged(when: string, made?: number): Promise<void>;
}

/**
 * Products a refused create made anyway, found by the unique name it carried (q, the field notes' search; a provider
 * that ignores it answers other products, which are left alone), tracked so the fixture deletes them.
 */
async function trackStrays(store: StoreUnderTest, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const found = await store.send({ method: 'GET', path: '/products', query: { q: name, per_page: 5 }, retry: false });
    if (found.status !== 200) continue;
    const products = parsedOrUndefined(found.text);
    for (const product of Array.isArray(products) ? (products as { id?: unknown }[]) : []) {
      if (typeof product?.id === 'number' && JSON.stringify(product).includes(name)) store.track('products', product.id);
    }
  }
}

async function refusalWitness(store: StoreUnderTest, rule: Rule): Promise<Witness> {
  const category = await ownCategory(store, rule);
  const before = await readMembers(store, 'categories', category, rule);
  const total = await totalOf(store, 'products', rule);
  const names: string[] = [];
  return {
    category,
    name: (prefix) => {
      names.push(uniqueName(prefix));
      return names.at(-1)!;
    },
    unchanged: async (when, made = 0) => {
      const after = await totalOf(store, 'products', rule);
      if (after !== total + made) await trackStrays(store, names);
      expect(after, says(rule, `${when}: X-Total-Count of /products went from ${total} to ${after}`)).toBe(total + made);
      const again = await readMembers(store, 'categories', category, rule);
      expectMembersAsBefore(before, again, Object.keys({ ...before, ...again }), rule, `${when}: category ${category}, named by the refused update`);
    },
  };
}

/** A product create and an update of the witness's category, as `as` sends them; each must be answered `status`. */
async function refusedPair(store: StoreUnderTest, rule: Rule, witness: Witness, status: number, as: (json: Members) => Partial<StoreRequest>): Promise<void> {
  const post = await store.send({ method: 'POST', path: '/products', retry: false, ...as({ name: witness.name(`Refused ${status}`) }) });
  expectRefused(post, status, rule, store, 'products');
  const put = await store.send({
    method: 'PUT',
    path: `/categories/${witness.category}`,
    retry: false,
    ...as({ name: uniqueName(`Refused ${status}`), description: `Refused ${status}` }),
  });
  expectRefused(put, status, rule, store, 'categories');
}

test(
  ...verifies('store.writes.refused-changes-nothing', '415: a create and an update sent without Content-Type', async ({ store, rule }) => {
    const witness = await refusalWitness(store, rule);
    await refusedPair(store, rule, witness, 415, (json) => ({ rawBody: JSON.stringify(json), contentType: null }));
    await witness.unchanged('after a POST and a PUT refused 415');
  }),
);

test(
  ...verifies('store.writes.refused-changes-nothing', '422: a create without a name and an update with a blank one', async ({ store, rule }) => {
    const witness = await refusalWitness(store, rule);
    // Each carries a valid member beside the invalid one: a provider that applied the valid part would show it.
    const post = await store.send({ method: 'POST', path: '/products', json: { description: 'Refused 422', tags: witness.name('Refused 422') }, retry: false });
    expectRefused(post, 422, rule, store, 'products');
    const put = await store.send({ method: 'PUT', path: `/categories/${witness.category}`, json: { name: '', description: 'Refused 422' }, retry: false });
    expectRefused(put, 422, rule, store, 'categories');
    await witness.unchanged('after a POST and a PUT refused 422');
  }),
);

test(
  ...verifies(
    'store.writes.refused-changes-nothing',
    '402: a create and an update while the store is suspended, read after payment',
    async ({ store, rule }) => {
      const witness = await refusalWitness(store, rule);
      await store.twin!.suspend();
      try {
        await refusedPair(store, rule, witness, 402, (json) => ({ json }));
      } finally {
        await store.twin!.resume();
      }
      await witness.unchanged('after a POST and a PUT refused 402, once payment resumed');
    },
    { needsTwin: 'needs the twin to suspend the store' },
  ),
);

/**
 * A write sent over a full bucket: unpaced reads until one answers 429, then the write at once, unpaced and unretried.
 * On a real clock the bucket may leak room for the write in between: then it was accepted (its record is tracked) and
 * the bucket is filled again, a few times at most. The refused answer, and the creates accepted before it.
 */
async function writeOverTheBucket(
  store: StoreUnderTest,
  rule: Rule,
  send: () => Promise<StoreResponse>,
): Promise<{ refused?: StoreResponse; accepted: number }> {
  let accepted = 0;
  for (let attempt = 0; attempt < 4; attempt++) {
    const probe = await store.send({ method: 'GET', path: '/categories', query: { per_page: 1 }, retry: false });
    expectStatus(probe, 200, rule);
    // Bounded: what Remaining says fits, what leaks meanwhile (a bucket drains whole in 20 s on every plan), and a margin.
    const limit = probe.rate?.limit ?? 400;
    const started = Date.now();
    const bound = () => (probe.rate?.remaining ?? limit) + Math.ceil(((Date.now() - started) / 20_000) * limit) + 15;
    let limited = false;
    for (let i = 0; i < bound() && !limited; i++) {
      limited = (await store.send({ method: 'GET', path: '/categories', query: { per_page: 1 }, pace: false, retry: false })).status === 429;
    }
    precondition(rule, store.target, limited, 'a provider that answers 429 over its bucket (store.ratelimit.bucket-429)');
    const res = await send();
    if (!twoXX(res.status)) return { refused: res, accepted };
    const id = (jsonOf(res, rule) as { id?: unknown }).id;
    if (typeof id === 'number') store.track('products', id);
    accepted++;
  }
  return { accepted };
}

test(
  ...verifies(
    'store.writes.refused-changes-nothing',
    '429: a create over the bucket, read at once and after the Reset it names',
    async ({ store, rule }) => {
      const witness = await refusalWitness(store, rule);
      const name = witness.name('Refused 429');
      const { refused, accepted } = await writeOverTheBucket(store, rule, () =>
        store.send({ method: 'POST', path: '/products', json: { name }, pace: false, retry: false }),
      );
      precondition(rule, store.target, refused !== undefined, 'a write sent right after a 429 refused too (each time the bucket leaked room for it first)');
      expectRefused(refused!, 429, rule, store, 'products');
      // The time it names: X-Rate-Limit-Reset, the milliseconds until the bucket is empty (20 s at most on every plan).
      const resetMs = Math.min(refused!.rate?.reset ?? 20_000, 20_000);
      const until = nowOn(store) + resetMs;
      await witness.unchanged(`at once after a POST refused 429 (${pathOf(refused!.url)})`, accepted);
      await waitOn(store, until - nowOn(store));
      await witness.unchanged(`${resetMs} ms after a POST refused 429, the Reset it named`, accepted);
    },
    {
      // Filling a plus plan's bucket is some 400 requests and the Reset a real wait of up to 20 s: verified on the twins
      // (a virtual clock) and on live, not recorded (the gate records against a plus-plan store).
      notRecorded: 'it fills the bucket (about 400 requests on a plus plan) and waits the Reset (up to 20 s): verified on the twins and on live',
    },
  ),
);
