import { expect, test } from '../../../src/testing/harnessTest.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listCassettes, readCassette, RECORDING_APIS, type Cassette } from '../../../src/recording/cassette.ts';
import { loadRules, normaliseCassette, RulesError } from '../../../src/recording/normalise.ts';

const ROOT = 'recordings';

test('normalising each shipped raw recording again gives exactly the normalised file beside it', () => {
  const raws = listCassettes(ROOT, 'raw');
  expect(raws.length, 'the repository ships recordings (npm run record:seed makes them)').toBeGreaterThan(100);
  const rules = Object.fromEntries(RECORDING_APIS.map((api) => [api, loadRules(api)]));
  const stale = raws.filter((file) => {
    const raw = readCassette(join(ROOT, file));
    const stored = readFileSync(join(ROOT, file.replace(/\.raw\.json$/, '.json')), 'utf8');
    return `${JSON.stringify(normaliseCassette(raw, rules[raw.api]!), null, 2)}\n` !== stored;
  });
  expect(stale, 'these normalised recordings differ from their raw ones normalised by contracts/<api>/normalisation.json: run npm run record:seed').toEqual([]);
});

test('what changes on every run is a placeholder after normalisation; what the provider says is kept', () => {
  const raw: Cassette = {
    format: 'harness-cassette/1',
    api: 'store',
    suite: 'products',
    test: 't',
    source: 'remote',
    uniqueSeed: 'abc',
    interactions: [
      {
        scope: 'https://api.example.test',
        method: 'POST',
        path: '/v1/4242/products',
        reqheaders: { 'user-agent': 'app', host: 'api.example.test', 'content-length': '20' },
        body: { name: 'Shirt (harness abc1)' },
        status: 201,
        rawHeaders: {
          date: 'Sun, 22 Nov 2026 10:00:00 GMT',
          'x-rate-limit-remaining': '38',
          link: '<https://api.example.test/v1/4242/products/901>; rel="self"',
          'x-main-language': 'es',
        },
        response: { id: 901, name: { es: 'Shirt (harness abc1)' }, created_at: '2026-11-22T10:00:00+0000', variants: [{ id: 902, product_id: 901 }] },
      },
      { scope: 'https://api.example.test', method: 'DELETE', path: '/v1/4242/products/901', reqheaders: {}, status: 200, rawHeaders: {} },
    ],
  };
  const [created, deleted] = normaliseCassette(raw, loadRules('store')).interactions;
  expect(created!.path).toBe('/v1/<store>/products');
  expect(created!.reqheaders).toEqual({ 'user-agent': 'app' });
  expect(created!.rawHeaders).toEqual({
    link: '<<origin>/v1/<store>/products/<id:1>>; rel="self"',
    'x-main-language': 'es',
    'x-rate-limit-remaining': '<remaining>',
  });
  expect(created!.response).toEqual({
    id: '<id:1>',
    name: { es: 'Shirt (harness <unique>)' },
    created_at: '<timestamp>',
    variants: [{ id: '<id:2>', product_id: '<id:1>' }],
  });
  expect(deleted!.path).toBe('/v1/<store>/products/<id:1>');
});

test('a burst of the same exchange is one interaction marked repeated, however long: its length is timing, not the provider', () => {
  const answer = (status: number, remaining: string) => ({
    scope: 'https://api.example.test',
    method: 'GET',
    path: '/v1/4242/products?per_page=1',
    reqheaders: {},
    status,
    rawHeaders: { 'x-rate-limit-remaining': remaining },
  });
  const burst = (served: number): Cassette => ({
    format: 'harness-cassette/1',
    api: 'store',
    suite: 'rate-limit',
    test: 't',
    source: 'remote',
    uniqueSeed: 'abc',
    interactions: [...Array.from({ length: served }, (_, n) => answer(200, String(served - n))), answer(429, '0'), answer(200, '1')],
  });
  const short = normaliseCassette(burst(3), loadRules('store')).interactions;
  expect(short.map((i) => [i.status, i.repeated])).toEqual([
    [200, true],
    [429, undefined],
    [200, undefined],
  ]);
  expect(normaliseCassette(burst(7), loadRules('store')).interactions, 'a longer burst normalises alike').toEqual(short);
  expect(normaliseCassette(burst(1), loadRules('store')).interactions[0]!.repeated, 'a single exchange is not marked').toBeUndefined();
});

test('a rules file with a wrong member is refused, naming the file and the member', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rules-'));
  const path = join(dir, 'normalisation.json');
  writeFileSync(
    path,
    JSON.stringify({ ...JSON.parse(readFileSync('contracts/store/normalisation.json', 'utf8')), ids: 'id', text: [{ pattern: '(', as: 'x' }] }),
  );
  expect(() => loadRules('store', path)).toThrow(RulesError);
  expect(() => loadRules('store', path)).toThrow(/ids must be a list; text pattern "\(" is not a regular expression/);
});
