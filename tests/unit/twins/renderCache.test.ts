import { expect, test } from '../../../src/testing/harnessTest.ts';
import { JsonText, jsonArray, jsonObject, jsonPayload, plainJson } from '../../../src/twins/http/jsonText.ts';
import { RenderCache } from '../../../src/twins/http/renderCache.ts';

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
  expect(jsonPayload(joined)).toBe(joined.bytes);
  expect(plainJson(joined)).toEqual({ data: items, meta });
  expect(JSON.stringify({ body: joined }), 'anything else that serialises it gets its value').toBe(JSON.stringify({ body: { data: items, meta } }));
});
