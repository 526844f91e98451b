import { expect, test } from '../../../src/testing/harnessTest.ts';
import { JsonText, jsonArray, jsonObject, jsonPayloadParts, plainJson } from '../../../src/twins/serving/jsonText.ts';
import { RenderCache } from '../../../src/twins/serving/renderCache.ts';

test('a record is rendered once per variant until the cache is invalidated', () => {
  const cache = new RenderCache<object>();
  const record = { name: 'a' };
  let renders = 0;
  const render = () => {
    renders += 1;
    return { ...record };
  };
  const first = cache.json(record, 'anonymous', render);
  expect(cache.json(record, 'anonymous', render)).toBe(first);
  expect(renders).toBe(1);
  cache.json(record, 'alice', render);
  expect(renders, 'another variant renders again').toBe(2);
  record.name = 'b';
  cache.invalidate();
  expect(cache.json(record, 'anonymous', render).toJSON()).toEqual({ name: 'b' });
  expect(renders).toBe(3);
});

test('JsonText joins serialised parts into the JSON JSON.stringify writes for the same value', () => {
  const items = [
    { id: 1, name: { es: 'Camiseta ñandú' } },
    { id: 2, tags: [] },
  ];
  const meta = { count: 2 };
  const joined = jsonObject([
    ['data', jsonArray(items.map((item) => JsonText.of(item)))],
    ['included', undefined],
    ['meta', meta],
  ]);
  expect(joined.bytes.toString('utf8')).toBe(JSON.stringify({ data: items, meta }));
  expect(jsonArray([]).bytes.toString()).toBe('[]');
  expect(jsonObject([]).bytes.toString()).toBe('{}');
  expect(Buffer.concat(jsonPayloadParts(joined)).equals(joined.bytes), 'the parts written are the bytes').toBe(true);
  expect(plainJson(joined)).toEqual({ data: items, meta });
  expect(JSON.stringify({ body: joined }), 'anything else that serialises it gets its value').toBe(JSON.stringify({ body: { data: items, meta } }));
});

test('a derived value is computed once per key until the cache is invalidated, with the renders', () => {
  const cache = new RenderCache<object>();
  let computed = 0;
  const compute = () => {
    computed += 1;
    return [computed];
  };
  const first = cache.derived('index\u0000anime', compute);
  expect(cache.derived('index\u0000anime', compute)).toBe(first);
  expect(computed).toBe(1);
  cache.derived('index\u0000manga', compute);
  expect(computed, 'another key computes again').toBe(2);
  cache.invalidate();
  expect(cache.derived('index\u0000anime', compute)).toEqual([3]);
});

test('texts built of others keep their pieces and are the JSON the joined bytes are', () => {
  const items = [{ id: 1 }, { id: 2, name: 'ñandú' }, { id: 3 }].map((item) => JsonText.of(item));
  const document = jsonObject([
    ['data', jsonArray(items)],
    ['meta', { count: 3 }],
  ]);
  const parts = jsonPayloadParts(document);
  expect(parts.length, 'an item after the first brings its comma in its own piece').toBeGreaterThan(3);
  expect(Buffer.concat(parts).toString('utf8')).toBe(JSON.stringify({ data: [{ id: 1 }, { id: 2, name: 'ñandú' }, { id: 3 }], meta: { count: 3 } }));
  expect(document.bytes.equals(Buffer.concat(parts))).toBe(true);
  expect(jsonPayloadParts({ plain: true })).toEqual([Buffer.from('{"plain":true}')]);
  expect(() => JsonText.of(undefined)).toThrow(TypeError);
});
