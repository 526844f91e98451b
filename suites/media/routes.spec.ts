import { stripVTControlCharacters } from 'node:util';
import type { TestInfo } from '@playwright/test';
import { uniqueUuid } from '../../src/recording/uniqueSource.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import { expect, test, verifies, type MediaUnderTest } from '../fixtures/mediaFixtures.ts';
import { jsonApiOf } from '../fixtures/mediaChecks.ts';
import { OBSERVATION, says } from '../../src/testing/ruleTest.ts';
import { ROUTES_NOT_SERVED_ON_LIVE, mediaRoutes, type MediaRoute } from '../../src/rules/mediaRoutes.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';

// Route coverage, generated from the one route table (src/rules/mediaRoutes.ts):
// every route must exist and answer in JSON:API (a document or an error document).

const RULE_OF_KIND = { standard: 'media.routes.standard', 'read-only': 'media.routes.read-only', special: 'media.routes.special' } as const;
const answered: string[] = [];

/**
 * A concrete request for a route shape that proves the route exists without
 * changing anything on a provider that keeps the contract: reads use an
 * existing id; writes name id 0 (no such record) or, for creates, a resource
 * type no collection has, which the provider must refuse. A provider that does
 * not refuse would write, so on live the write probes need KITSU_ALLOW_WRITES.
 */
async function probe(media: MediaUnderTest, route: MediaRoute): Promise<{ path: string; query: Record<string, string>; body?: unknown }> {
  const collection = route.path.split('/')[1]!;
  const reads = route.method === 'GET';
  let path = route.path.replace('{namespace}', 'anime').replace('{group}', 'user').replace('{action}', 'media').replace('{uuid}', uniqueUuid());
  const query: Record<string, string> = {};
  if (collection === 'library-entries' && route.operation === 'index') query['filter[userId]'] = '1';
  if (path.endsWith('/_bulk') && collection === 'library-entries') query['filter[id]'] = '0';
  if (path.includes('{id}')) {
    let id = reads ? '1' : '0';
    if (reads && route.kind !== 'special') {
      const index = await (media.signedIn ?? media.anonymous).send({
        method: 'GET',
        path: `/${collection}`,
        query: { 'page[limit]': 1, ...(collection === 'library-entries' ? { 'filter[userId]': '1' } : {}) },
        retry: false,
      });
      const data = (JSON.parse(index.text || '{}') as { data?: { id?: string }[] }).data;
      if (Array.isArray(data) && data[0]?.id) id = data[0].id;
    }
    path = path.replace('{id}', id);
  }
  const hasBody = route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT';
  const body = hasBody ? { data: { type: 'routeCoverageProbes', ...(route.path.includes('{id}') ? { id: '0' } : {}), attributes: {} } } : undefined;
  return { path, query, ...(body ? { body } : {}) };
}

/** What is wrong with one route's answer, or undefined when it answered in JSON:API (or is a documented absence on live). */
async function routeProblem(media: MediaUnderTest, route: MediaRoute, testInfo: TestInfo, rule: Rule): Promise<string | undefined> {
  const client = media.signedIn ?? media.anonymous;
  const { path, query, body } = await probe(media, route);
  const res = await client.send({ method: route.method, path, query, ...(body ? { body } : {}), retry: false });
  const notServed = ROUTES_NOT_SERVED_ON_LIVE[route.path];
  const missing = res.status === 405 || (res.status === 404 && /route not found/i.test(res.text));
  if (missing && notServed && media.target !== 'twin') {
    testInfo.annotations.push({ type: OBSERVATION, description: `${route.method} ${route.path} is not served: ${notServed}` });
    return undefined;
  }
  if (missing) return `${route.method} ${route.path} is missing: ${path} answered ${res.status} ${res.text.slice(0, 120)}`;
  if (res.status >= 500) return `${route.method} ${path} answered ${res.status}: a provider error, not a contract answer`;
  if (res.status !== 204) {
    const type = res.headers['content-type'] ?? '';
    if (!type.includes(MEDIA_CONTRACT.mediaType)) return `${route.method} ${path} answered in ${type || 'no media type'}, not ${MEDIA_CONTRACT.mediaType}`;
    try {
      jsonApiOf(res, rule);
    } catch (error) {
      return stripVTControlCharacters((error as Error).message).split('\n')[0];
    }
  }
  answered.push(`${route.method} ${route.path}`);
  return undefined;
}

// One test per rule and kind of request (the reads; the write probes, which need KITSU_ALLOW_WRITES on live), each
// route a line of its failure: with a test per route, a break that touched every route failed some 300 tests, and
// each failed test costs Playwright a new worker.
const GROUPS = Map.groupBy(mediaRoutes(), (route) => `${route.kind} ${route.method === 'GET' ? 'reads' : 'write probes'}`);
/** Each route's probe is one or two requests; a slow provider still gets a second or more for each. */
const PER_ROUTE_MS = 1_000;

for (const routes of GROUPS.values()) {
  const ruleId = RULE_OF_KIND[routes[0]!.kind];
  const writes = routes[0]!.method !== 'GET';
  test(
    ...verifies(
      ruleId,
      `${writes ? 'write probes' : 'reads'}: every route of the table exists and answers in JSON:API`,
      async ({ media, rule }, testInfo) => {
        test.setTimeout(testInfo.timeout + routes.length * PER_ROUTE_MS);
        const problems: string[] = [];
        for (const route of routes) {
          const problem = await routeProblem(media, route, testInfo, rule);
          if (problem) problems.push(problem);
        }
        expect(problems, says(rule, `${problems.length} of ${routes.length} routes did not answer as the route table says:\n${problems.join('\n')}`)).toEqual(
          [],
        );
      },
      { writes },
    ),
  );
}

test(
  ...verifies('media.routes.edge-prefix', 'the base, resource self links and pagination links', async ({ media, rule }) => {
    expect(new URL(media.apiUrl).pathname, says(rule, 'the configured base ends in /api/edge')).toMatch(/\/api\/edge$/);
    const page = await media.anonymous.list('anime', { page: { limit: 2 } });
    const links = [...Object.values(page.links), ...page.data.map((r) => r.links?.self)].filter((l): l is string => typeof l === 'string');
    expect(links.length, says(rule, 'the answer has links to check')).toBeGreaterThan(0);
    for (const link of links) expect(new URL(link).pathname, says(rule, `${link} begins with /api/edge`)).toMatch(/^\/api\/edge\//);
  }),
);

test.afterAll(() => {
  const total = mediaRoutes().length;
  console.log(`media route coverage: ${answered.length} of ${total} routes of the spec answered in JSON:API`);
});
