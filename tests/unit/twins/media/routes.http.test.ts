import { isDeepStrictEqual } from 'node:util';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { mediaRoutes, type MediaRoute } from '../../../../src/rules/mediaRoutes.ts';
import { definitionForCollection } from '../../../../src/twins/media/registry.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { JSON_API, control, send, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;

test.beforeAll(async () => {
  twin = await startTestTwin();
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

const SEEDED_ACTIVITY = '00000000-0000-4000-8000-000000000001';
const ROUTE_NOT_FOUND = { errors: [{ status: 404, title: 'Route Not Found' }] };

/** A concrete path for a route of the table. */
function pathOf(route: MediaRoute): string {
  const feed = route.path.startsWith('/feeds/');
  return route.path
    .replace('{namespace}', 'anime')
    .replace('{group}', 'user')
    .replace('{id}', feed ? MEDIA_SEED.users.adultAllowed.id : route.path.startsWith('/activities/') ? SEEDED_ACTIVITY : '1')
    .replace('{uuid}', SEEDED_ACTIVITY)
    .replace('{action}', 'media');
}

/** A minimal JSON:API body for a write: enough to reach the policy and validation steps. */
function bodyOf(route: MediaRoute): unknown {
  if (route.path === '/embeds') return { url: 'https://example.test/page' };
  if (route.path === '/uploads/_bulk') return { data: [{ type: 'uploads', attributes: { content: 'https://example.test/a.png' } }] };
  const collection = route.path.split('/')[1] ?? '';
  const type = definitionForCollection(collection)?.type ?? collection;
  if (route.path.endsWith('/_bulk')) return { data: { type, attributes: { status: 'completed' } } };
  if (route.operation === 'create') return { data: { type, attributes: {} } };
  if (route.operation === 'update') return { data: { type, id: '1', attributes: {} } };
  return undefined;
}

for (const viewer of ['anonymous', 'alice', 'admin'] as const) {
  test(`every route of the table answers JSON:API, never Route Not Found and never 500 (${viewer})`, async () => {
    await control(twin.twin.url, 'POST', '/reset');
    const token =
      viewer === 'anonymous'
        ? undefined
        : viewer === 'alice'
          ? await signIn(twin.twin.url, MEDIA_SEED.users.adultAllowed.name, MEDIA_SEED.users.adultAllowed.password)
          : await signIn(twin.twin.url, 'admin', 'admin-password');
    // Reads first, then writes, then deletes, so a delete does not hide a later read.
    const order = { GET: 0, POST: 1, PATCH: 2, PUT: 3, DELETE: 4 } as const;
    const routes = mediaRoutes().sort((a, b) => order[a.method] - order[b.method]);
    expect(routes.length).toBe(48 * 6 + 3 * 2 + 23);
    // One expect for the whole table (each expect is a Playwright step that captures a stack): every broken route is listed.
    const problems: string[] = [];
    for (const route of routes) {
      const path = pathOf(route);
      const body = bodyOf(route);
      const answer = await send(`${twin.api}${path}`, {
        method: route.method,
        ...(token ? { token } : {}),
        ...(body === undefined ? {} : { json: body }),
      });
      const where = `${route.method} ${path} (${viewer}) → ${answer.status} ${answer.text.slice(0, 200)}`;
      const problem = routeProblem(answer, path);
      if (problem) problems.push(`${where}: ${problem}`);
    }
    expect(problems, 'routes that answered a 5xx, no JSON:API or Route Not Found').toEqual([]);
  });
}

/** What is wrong with a route's answer, or undefined: below 500, JSON:API, not Route Not Found, a document (or an empty ack). */
function routeProblem(answer: Awaited<ReturnType<typeof send>>, path: string): string | undefined {
  if (answer.status >= 500) return 'a 5xx';
  if (answer.headers['content-type'] !== JSON_API) return `Content-Type ${answer.headers['content-type']}, not ${JSON_API}`;
  if (answer.status === 204) return answer.text === '' ? undefined : 'a 204 with a body';
  const document = answer.json() as Record<string, unknown>;
  if (isDeepStrictEqual(document, ROUTE_NOT_FOUND)) return 'Route Not Found';
  const keys = Object.keys(document);
  const isEmptyAck = keys.length === 0 && ['_accept', '_decline', '_revoke', '_read'].some((suffix) => path.endsWith(suffix));
  return isEmptyAck || keys.some((key) => ['data', 'errors', 'meta'].includes(key)) ? undefined : 'a document with none of data, errors or meta';
}

test('a method or path outside the table is 404 Route Not Found with the real body', async () => {
  for (const [method, path] of [
    ['POST', '/stats'],
    ['DELETE', '/profile-link-sites/1'],
    ['GET', '/nope'],
    ['PROPFIND', '/anime'],
    ['GET', '/anime/1/nope'],
    ['GET', '/anime/1/mediaRelationships'],
    ['POST', '/trending/anime'],
  ] as const) {
    const answer = await send(`${twin.api}${path}`, { method });
    expect(answer.status, `${method} ${path}`).toBe(404);
    expect(answer.json()).toEqual(ROUTE_NOT_FOUND);
    expect(answer.headers['content-type']).toBe(JSON_API);
  }
  const outside = await send(`${twin.twin.url}/api/v2/anime`);
  expect(outside.status).toBe(404);
  expect(outside.json()).toEqual(ROUTE_NOT_FOUND);
});
