import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { Interaction } from '../../../src/recording/cassette.ts';
import { loadRules } from '../../../src/recording/normalise.ts';
import { ReplayBook, ReplayMiss } from '../../../src/recording/replayBook.ts';

const rules = loadRules('store');
const UA = 'app (ops@example.invalid)';

function recorded(path: string, status: number, extra: Partial<Interaction> = {}): Interaction {
  return {
    scope: 'https://api.example.test',
    method: 'GET',
    path,
    reqheaders: { authentication: 'bearer redacted-0a1b2c3d', 'user-agent': UA, host: 'api.example.test' },
    status,
    rawHeaders: {},
    response: { status },
    ...extra,
  };
}

const request = (path: string, headers: Record<string, string> = { authentication: 'bearer redacted-0a1b2c3d', 'user-agent': UA }) => ({
  method: 'GET',
  path,
  reqheaders: headers,
});

test('the same request recorded twice is answered in recorded order, and a third time is a miss that says so', () => {
  const book = new ReplayBook(rules, [{ source: 'c.raw.json', interactions: [recorded('/v1/1/products', 200), recorded('/v1/1/products', 429)] }]);
  expect(book.answer(request('/v1/1/products')).interaction.status).toBe(200);
  expect(book.answer(request('/v1/1/products')).interaction.status).toBe(429);
  expect(() => book.answer(request('/v1/1/products'))).toThrow(/recorded 2 time\(s\) and every recording of it is used up/);
  expect(book.unused()).toEqual([]);
});

test('a request without its User-Agent gets what was recorded without it, not the answer of one with it', () => {
  const book = new ReplayBook(rules, [
    {
      source: 'c.raw.json',
      interactions: [recorded('/v1/1/products', 200), recorded('/v1/1/products', 400, { reqheaders: { authentication: 'bearer redacted-0a1b2c3d' } })],
    },
  ]);
  expect(book.answer(request('/v1/1/products', { authentication: 'bearer redacted-0a1b2c3d' })).interaction.status).toBe(400);
  expect(book.unused().map((i) => i.status)).toEqual([200]);
});

test('a miss names the closest recorded request and how it differs', () => {
  const book = new ReplayBook(rules, [
    { source: 'store/products/list.raw.json', interactions: [recorded('/v1/1/products?page=2', 200), recorded('/v1/1/categories', 200)] },
  ]);
  const miss = (() => {
    try {
      book.answer(request('/v1/1/products?page=3'));
    } catch (error) {
      return error;
    }
  })();
  expect(miss).toBeInstanceOf(ReplayMiss);
  expect((miss as Error).message).toContain('no recording of GET /v1/1/products?page=3');
  expect((miss as Error).message).toContain('closest recorded request is GET /v1/1/products?page=2 (in store/products/list.raw.json)');
  expect((miss as Error).message).toContain('query (recorded "page=2", sent "page=3")');
});

test('a credential other than the recorded one is a different request, compared as stand-ins', () => {
  const book = new ReplayBook(rules, [{ source: 'c.raw.json', interactions: [recorded('/v1/1/products', 200)] }]);
  expect(() => book.answer(request('/v1/1/products', { authentication: 'bearer some-other-token', 'user-agent': UA }))).toThrow(
    /header authentication \(recorded "bearer redacted-0a1b2c3d", sent "bearer redacted-[0-9a-f]{8}"\)/,
  );
});

test('the replay server mode cycles through what was recorded', () => {
  const book = new ReplayBook(rules, [{ source: 'c.raw.json', interactions: [recorded('/v1/1/products', 200), recorded('/v1/1/products', 429)] }], {
    cycle: true,
  });
  expect([1, 2, 3, 4].map(() => book.answer(request('/v1/1/products')).interaction.status)).toEqual([200, 429, 200, 429]);
});
