/**
 * Who a break affects (src/reporting/affectedConsumers.ts, with the rules' concerns of ruleConcerns.ts), on the
 * pacts the harness verifies: its own (contracts/pacts), the examples' (examples/pacts) and the held-out
 * consumers' (tests/fixtures/pacts). A consumer that does not use what broke is never named.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import {
  affectedConsumers,
  affectedLines,
  affectedMarkdown,
  apiOfProviderName,
  consumerPact,
  memberMatches,
  memberPath,
  readConsumerPacts,
  routeMatches,
  routeOf,
  type Affected,
  type Break,
} from '../../../src/reporting/affectedConsumers.ts';
import { breakOfRule, breaksOfDrift, concernOf, noConcernReason, RULE_CONCERNS } from '../../../src/reporting/ruleConcerns.ts';
import { CATALOGUES } from '../../../src/rules/catalogues.ts';
import { failsOnEveryTarget } from '../../../src/rules/Rule.ts';
import { apiOfProvider } from '../../../contracts/verification/outsidePacts.ts';

const PACTS = readConsumerPacts(['contracts/pacts', 'examples/pacts', 'tests/fixtures/pacts']);

/** `consumer: interaction; interaction` per consumer a rule's failure names. */
function named(affected: readonly Affected[]): Record<string, string[]> {
  return Object.fromEntries(affected[0]!.consumers.map((c) => [c.consumer, c.interactions.map((i) => i.description)]));
}

function failed(rule: string, failingRequests: string[] = []): Break {
  const brk = breakOfRule(rule, failingRequests);
  expect(brk, `${rule} is a contract or reliance rule of the catalogues`).toBeDefined();
  return brk!;
}

test('every pact the gate verifies is read: consumer, API, and what each interaction uses', () => {
  expect(PACTS.map((p) => `${p.consumer} (${p.api})`).sort()).toEqual([
    'anime-widget (media)',
    'media-integration (media)',
    'media-library-reader (media)',
    'store-integration (store)',
    'store-product-sync (store)',
    'store-webhook-handler (store)',
    'storefront-menu (store)',
  ]);
  const sync = PACTS.find((p) => p.consumer === 'store-product-sync')!;
  expect(sync.interactions[0]).toMatchObject({
    description: 'the first page of products for the sync',
    method: 'GET',
    route: '/products',
    params: ['per_page'],
    status: 200,
    body: true,
  });
  expect(sync.interactions[0]!.headers).toEqual(expect.arrayContaining(['authentication', 'user-agent', 'link', 'content-type']));
  expect(sync.interactions[0]!.members).toEqual(expect.arrayContaining(['id', 'name', 'name.es', 'variants', 'variants.price']));
  const reader = PACTS.find((p) => p.consumer === 'media-library-reader')!;
  expect(reader.interactions[1]).toMatchObject({ route: '/library-entries' });
  expect(reader.interactions[1]!.params).toEqual(expect.arrayContaining(['include', 'fields[anime]', 'filter[userId]', 'page[limit]']));
  expect(reader.interactions[1]!.members).toEqual(expect.arrayContaining(['included.attributes.canonicalTitle', 'data.relationships.anime.data.id']));
});

test('a header the break removes names the consumers that expect it, and no one else', () => {
  // X-Total-Count: only the harness's own first page states it; the sync reads Link, the menu reads categories.
  expect(named(affectedConsumers([failed('store.pagination.total-count')], PACTS))).toEqual({
    'store-integration': ['a request for the first page of products, 30 per page'],
  });
  // Link: the harness's first page and the sync's first page (which follows it), the sync's page 2 by its page parameter.
  expect(named(affectedConsumers([failed('store.pagination.follow-links')], PACTS))).toEqual({
    'store-integration': ['a request for the first page of products, 30 per page'],
    'store-product-sync': ['the first page of products for the sync', 'the last page of products for the sync'],
  });
  const [link] = affectedConsumers([failed('store.pagination.link-full-urls')], PACTS);
  expect(link!.consumers.find((c) => c.consumer === 'store-product-sync')!.interactions[0]!.uses).toEqual(['header Link']);
});

test('a member names the consumers whose bodies or matchers hold it, on the routes the rule concerns', () => {
  // parent: the categories a menu reads, and the harness's one category; never a product interaction.
  expect(named(affectedConsumers([failed('store.categories.parent-null-top-level')], PACTS))).toEqual({
    'store-integration': ['a request for one category'],
    'storefront-menu': ['a request for the categories of a store with a tree', 'a request for a leaf category'],
  });
  // meta.count: the harness's TV anime list and the widget's slug lookup (its matcher), not the library reader.
  const [count] = affectedConsumers([failed('media.pagination.meta-count')], PACTS);
  expect(Object.keys(named([count!]))).toEqual(['anime-widget', 'media-integration']);
  expect(count!.consumers[0]!.interactions[0]!.uses).toEqual(['member meta.count']);
});

test('a parameter names the consumers that send it: sparse fieldsets are the widget and the reader, never the harness', () => {
  expect(named(affectedConsumers([failed('media.jsonapi.sparse-fields')], PACTS))).toEqual({
    'anime-widget': ['a request for one anime with only its title and episode count', 'a request for anime by slug, with only slug and title'],
    'media-library-reader': [
      'a request for the anime with a slug, with only slug and title',
      "a signed-in user's request for their library entries with their anime's titles",
    ],
  });
});

test('a status names the interactions that expect it; a rule no pact can lean on names no one, and says why', () => {
  expect(named(affectedConsumers([failed('store.suspension.every-call-402')], PACTS))).toEqual({ 'store-integration': ['a request to a suspended store'] });
  expect(affectedConsumers([failed('store.webhooks.suspension-events')], PACTS)[0]!.consumers).toEqual([]);
  expect(noConcernReason('store.webhooks.suspension-events')).toMatch(/webhook deliveries/);
  expect(affectedConsumers([failed('media.jsonapi.sort')], PACTS)[0]!.consumers).toEqual([]);
});

test("tonight's verdicts: a failed interaction is marked; one that uses none of it is named only when its failure names what broke", () => {
  const verdicts = [
    {
      consumer: 'store-integration',
      description: 'a request for the first page of products, 30 per page',
      status: 'failed' as const,
      reason: 'no X-Total-Count',
    },
    // The menu failed tonight for its own reason: a failure is not enough to be named.
    { consumer: 'storefront-menu', description: 'a request for the categories of a store with a tree', status: 'failed' as const, reason: 'status 500' },
    { consumer: 'store-product-sync', description: 'the first page of products for the sync', status: 'skipped' as const, reason: 'set STORE_ALLOW_WRITES=1' },
  ];
  const [total] = affectedConsumers([failed('store.pagination.total-count')], PACTS, verdicts);
  expect(total!.consumers.map((c) => c.consumer)).toEqual(['store-integration']);
  expect(total!.consumers[0]!.interactions[0]).toMatchObject({ tonight: 'failed', uses: ['header X-Total-Count'] });

  // A drift break on the menu's route whose header the menu does not state: named because its failure names it.
  const drift: Break = {
    id: 'drift: GET /categories X-Main-Language',
    api: 'store',
    kind: 'drift',
    concern: { routes: ['/categories'], headers: ['X-Main-Language'] },
  };
  expect(affectedConsumers([drift], PACTS, verdicts)[0]!.consumers).toEqual([]);
  const named500 = affectedConsumers([drift], PACTS, [{ ...verdicts[1]!, reason: "Expected header 'X-Main-Language' to have value" }]);
  expect(named500[0]!.consumers[0]!.interactions[0]).toMatchObject({ tonight: 'failed', uses: ['its failure names X-Main-Language'] });
});

test('a rule about every route and nothing more is judged by the routes of its failing requests', () => {
  const [special] = affectedConsumers([failed('media.routes.standard', ['GET https://kitsu.example/api/edge/anime/1 → 404'])], PACTS);
  expect(named([special!])).toEqual({
    'anime-widget': ['a request for one anime with only its title and episode count'],
    'media-integration': ['a request for one anime', 'an anonymous request for an adult anime'],
  });
});

test('every contract and reliance rule says what it concerns (or why no pact can lean on it); field-notes rules are no break on live', () => {
  for (const catalogue of Object.values(CATALOGUES)) {
    for (const rule of Object.values(catalogue)) {
      if (!failsOnEveryTarget(rule)) {
        expect(breakOfRule(rule.id), `${rule.id} is field notes: an observation on live, not a break`).toBeUndefined();
        continue;
      }
      expect(concernOf(rule.id) ?? noConcernReason(rule.id), `${rule.id}: add it to RULE_CONCERNS in src/reporting/ruleConcerns.ts`).toBeDefined();
    }
  }
  for (const id of Object.keys(RULE_CONCERNS)) expect(CATALOGUES[id.split('.')[0]!]?.[id], `${id} is in RULE_CONCERNS but in no catalogue`).toBeDefined();
});

test('drift contract breaks become breaks on their route, with the header or member that changed', () => {
  const breaks = breaksOfDrift({
    apis: [
      {
        api: 'store',
        cassettes: [
          {
            findings: [
              {
                kind: 'contract-break',
                change: 'header-removed',
                route: 'GET /v1/<store>/products?per_page=30',
                subject: 'X-Total-Count',
                message: 'header X-Total-Count removed',
              },
              { kind: 'observation', change: 'header-added', route: 'GET /v1/<store>/products', subject: 'X-Other', message: 'added' },
            ],
          },
        ],
      },
      {
        api: 'media',
        cassettes: [{ findings: [{ kind: 'contract-break', change: 'schema', route: 'GET /api/edge/anime', subject: '$.meta.count', message: 'schema' }] }],
      },
    ],
  });
  expect(breaks.map((b) => b.id)).toEqual(['drift: GET /products X-Total-Count', 'drift: GET /anime $.meta.count']);
  const affected = affectedConsumers(breaks, PACTS);
  expect(named([affected[0]!])).toEqual({ 'store-integration': ['a request for the first page of products, 30 per page'] });
  expect(Object.keys(named([affected[1]!]))).toEqual(['anime-widget', 'media-integration']);
});

test('routes, members and provider names are read the way the verification reads them', () => {
  expect(routeOf('store', '/v1/100001/categories/7')).toBe('/categories/7');
  expect(routeOf('store', '/apps/authorize/token')).toBe('/apps/authorize/token');
  expect(routeOf('media', '/api/edge/library-entries/_bulk?filter[id]=1')).toBe('/library-entries/_bulk');
  expect(routeMatches('/categories/{id}', '/categories/7')).toBe(true);
  expect(routeMatches('/categories/{id}', '/categories')).toBe(false);
  expect(routeMatches('/anime/**', '/anime/1/episodes')).toBe(true);
  expect(memberPath("$.data[*].attributes['canonicalTitle']")).toBe('data.attributes.canonicalTitle');
  expect(memberMatches('meta.count', 'meta')).toBe(true);
  expect(memberMatches('meta.count', 'data.meta')).toBe(true);
  expect(memberMatches('*_at', 'products.created_at')).toBe(true);
  expect(memberMatches('count', 'data.attributes.episodeCount')).toBe(false);
  for (const name of ['store-commerce-api', 'media-tracking-api', 'Kitsu', 'payments', 'store-media-gateway'])
    expect(apiOfProviderName(name), name).toBe(apiOfProvider(name));
  expect(consumerPact('x.json', '{"not": "a pact"}')).toBeUndefined();
});

test('the summary lines and the Markdown name the consumer, the interaction, tonight and what it uses', () => {
  const affected = affectedConsumers([failed('store.pagination.total-count'), failed('media.jsonapi.sort')], PACTS, [
    {
      consumer: 'store-integration',
      description: 'a request for the first page of products, 30 per page',
      status: 'failed',
      reason: 'Error: no X-Total-Count\nmore',
    },
  ]);
  expect(affectedLines(affected)).toEqual([
    '  store.pagination.total-count → store-integration: “a request for the first page of products, 30 per page” (failed tonight; header X-Total-Count)',
    "  media.jsonapi.sort: no consumer's pact uses what it concerns",
  ]);
  const markdown = affectedMarkdown(affected);
  expect(markdown).toContain('### store.pagination.total-count (contract, store)');
  expect(markdown).toContain('  - “a request for the first page of products, 30 per page”: failed tonight: no X-Total-Count; uses header X-Total-Count');
  expect(markdown).toContain("### media.jsonapi.sort (reliance, media)\n\nNo consumer's pact uses what it concerns.");
});
