import { readFileSync } from 'node:fs';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { MediaClient } from '../../../../src/clients/media/MediaClient.ts';
import { resolveRelationship } from '../../../../src/clients/media/resolveRelationship.ts';
import {
  ForbiddenError,
  MediaApiError,
  MediaInvalidResponseError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '../../../../src/clients/media/errors.ts';
import { errorDocument, resource, startFakeMedia, TOKEN, type FakeMedia, type RecordedRequest, type Reply } from './fakeMedia.ts';

const FIXTURES = new URL('../../../captured/media/', import.meta.url);
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
const ERRORS = fixture('errors.json') as Record<string, unknown>;

let media: FakeMedia;
let route: (request: RecordedRequest) => Reply = () => ({ json: { data: [] } });

test.beforeAll(async () => {
  media = await startFakeMedia((request) => route(request));
});
test.afterAll(async () => {
  await media.close();
});
test.beforeEach(() => {
  media.requests.length = 0;
});

function client(token: string | undefined = TOKEN): MediaClient {
  return new MediaClient({ baseUrl: media.baseUrl, ...(token ? { token } : {}), clock: new VirtualClock(0) });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error,
  );
}

function lastQuery(): URLSearchParams {
  return new URL(media.requests.at(-1)!.url, media.origin).searchParams;
}

test.describe('list', () => {
  test('the 2018 capture of GET /anime?page[limit]=2: data, meta.count and links as sent', async () => {
    const capture = fixture('anime-collection.2018-capture.json') as { links: Record<string, string> };
    route = () => ({ json: capture });
    const page = await client().list('anime', { page: { limit: 2 } });
    expect(media.requests[0]!.url).toBe('/api/edge/anime?page%5Blimit%5D=2');
    expect(page.data).toHaveLength(1);
    expect(page.data[0]!.id).toBe('1');
    expect(page.data[0]!.attributes.canonicalTitle).toBe('Cowboy Bebop');
    expect(page.data[0]!.relationships.categories!.links!.related).toBe('https://kitsu.io/api/edge/anime/1/categories');
    expect(page.meta.count).toBe(12654);
    expect(page.links).toEqual(capture.links);
    expect(page.included).toEqual([]);
    expect(page.response.status).toBe(200);
  });

  test('the 2016 library entries (no relationships member): relationships is an empty object', async () => {
    route = () => ({ json: fixture('library-entries.2016-capture.json') });
    const page = await client().list('library-entries', { filter: { userId: 5554 } });
    expect(lastQuery().get('filter[userId]')).toBe('5554');
    expect(page.data[0]!.relationships).toEqual({});
    expect(page.data[0]!.attributes.status).toBe('on_hold');
    expect(page.meta.statusCounts).toEqual({ current: 31, planned: 98, completed: 132, onHold: 10, dropped: 2 });
  });

  test('every query part reaches the service', async () => {
    route = () => ({ json: { data: [], meta: { count: 0 }, links: {} } });
    await client().list('anime', {
      include: ['categories', 'mediaRelationships.destination'],
      fields: { anime: ['slug', 'titles'] },
      filter: { seasonYear: 2017, subtype: ['TV', 'movie'] },
      sort: ['-averageRating', 'startDate'],
      page: { limit: 5, offset: 10 },
    });
    expect(Object.fromEntries(lastQuery())).toEqual({
      include: 'categories,mediaRelationships.destination',
      'fields[anime]': 'slug,titles',
      'filter[seasonYear]': '2017',
      'filter[subtype]': 'TV,movie',
      sort: '-averageRating,startDate',
      'page[limit]': '5',
      'page[offset]': '10',
    });
  });

  test('a special route body {data: [...]} only (trending): meta and links empty', async () => {
    route = () => ({ json: { data: [resource('anime', '3')] } });
    const page = await client().list('trending/anime');
    expect(media.requests[0]!.url).toBe('/api/edge/trending/anime');
    expect(page.data.map((r) => r.id)).toEqual(['3']);
    expect(page.meta).toEqual({});
    expect(page.links).toEqual({});
  });

  test('a 200 that is not a collection document is a MediaInvalidResponseError', async () => {
    route = () => ({ json: { data: resource('anime', '1') } });
    const error = await failure(client().list('anime'));
    expect(error).toBeInstanceOf(MediaInvalidResponseError);
    expect(error.message).toMatch(/^Media API answered GET .*\/api\/edge\/anime with 200 and a collection document without a data array/);
  });
});

test.describe('iterate (follows links.next only)', () => {
  // Opaque cursors: a client that built offsets itself would ask for something else.
  const pages: Record<string, { ids: string[]; next?: string }> = {
    first: { ids: ['1', '2'], next: 'c=7f3a' },
    'c=7f3a': { ids: ['3', '4'], next: 'c=90be' },
    'c=90be': { ids: ['5'] },
  };
  const paged = (request: RecordedRequest): Reply => {
    const c = new URL(request.url, media.origin).searchParams.get('c');
    const page = pages[c ? `c=${c}` : 'first']!;
    const links: Record<string, string> = { first: `${media.baseUrl}/anime?page%5Blimit%5D=2&page%5Boffset%5D=0` };
    if (page.next) links.next = `${media.baseUrl}/anime?${page.next}`;
    return { json: { data: page.ids.map((id) => resource('anime', id)), meta: { count: 5 }, links } };
  };

  test('every resource, page after page, through the links the service gave', async () => {
    route = paged;
    const ids: string[] = [];
    for await (const anime of client().iterate('anime', { page: { limit: 2 } })) ids.push(anime.id);
    expect(ids).toEqual(['1', '2', '3', '4', '5']);
    expect(media.requests.map((r) => r.url)).toEqual(['/api/edge/anime?page%5Blimit%5D=2', '/api/edge/anime?c=7f3a', '/api/edge/anime?c=90be']);
    expect(media.requests.every((r) => r.headers['authorization'] === `Bearer ${TOKEN}`)).toBe(true);
  });

  test('an unavailable link written as null (JSON:API) ends the walk and is left out of the page links', async () => {
    route = (request) =>
      request.url.includes('offset')
        ? {
            json: {
              data: [resource('anime', '2')],
              meta: { count: 2 },
              links: { first: `${media.baseUrl}/anime`, prev: `${media.baseUrl}/anime`, next: null },
            },
          }
        : { json: { data: [resource('anime', '1')], meta: { count: 2 }, links: { prev: null, next: `${media.baseUrl}/anime?page%5Boffset%5D=1` } } };
    const first = await client().list('anime');
    expect(first.links).toEqual({ next: `${media.baseUrl}/anime?page%5Boffset%5D=1` });
    const ids: string[] = [];
    for await (const anime of client().iterate('anime')) ids.push(anime.id);
    expect(ids).toEqual(['1', '2']);
  });

  test('a links.next outside the API base is not followed with the token', async () => {
    route = () => ({ json: { data: [resource('anime', '1')], meta: { count: 2 }, links: { next: `${media.origin}/elsewhere/anime?c=2` } } });
    const error = await failure(
      (async () => {
        for await (const _ of client().iterate('anime')) void _;
      })(),
    );
    expect(error).toBeInstanceOf(MediaInvalidResponseError);
    expect(error.message).toContain("outside the API's base");
    expect(media.requests).toHaveLength(1);
  });

  test('a links.next that loops back is a MediaInvalidResponseError, not an endless walk', async () => {
    route = () => ({ json: { data: [resource('anime', '1')], meta: { count: 1 }, links: { next: `${media.baseUrl}/anime?c=again` } } });
    const read: string[] = [];
    const error = await failure(
      (async () => {
        for await (const anime of client().iterate('anime')) read.push(anime.id);
      })(),
    );
    expect(error).toBeInstanceOf(MediaInvalidResponseError);
    expect(error.message).toContain('a links.next that points back to a page already read');
    expect(read).toEqual(['1', '1']);
    expect(media.requests).toHaveLength(2);
  });

  test('a links.next on an empty page (past the end) is a MediaInvalidResponseError, not a walk through the budget', async () => {
    let n = 0;
    route = () => {
      n++;
      return n === 1
        ? { json: { data: [resource('anime', '1')], meta: { count: 1 }, links: { next: `${media.baseUrl}/anime?page%5Boffset%5D=${n}` } } }
        : { json: { data: [], meta: { count: 1 }, links: { next: `${media.baseUrl}/anime?page%5Boffset%5D=${n}` } } };
    };
    const read: string[] = [];
    const error = await failure(
      (async () => {
        for await (const anime of client().iterate('anime')) read.push(anime.id);
      })(),
    );
    expect(error).toBeInstanceOf(MediaInvalidResponseError);
    expect(error.message).toContain('a links.next on a page with no resources, past the end');
    expect(read).toEqual(['1']);
    expect(media.requests).toHaveLength(2);
  });

  test('a links.next that is no URL is a MediaInvalidResponseError', async () => {
    route = () => ({ json: { data: [], meta: { count: 0 }, links: { next: 'http://[' } } });
    const error = await failure(
      (async () => {
        for await (const _ of client().iterate('anime')) void _;
      })(),
    );
    expect(error).toBeInstanceOf(MediaInvalidResponseError);
    expect(error.message).toContain('a links.next that is not a URL ("http://[")');
  });

  test('an error on a later page is thrown as its typed error', async () => {
    route = (request) => (request.url.includes('c=') ? { status: 404, json: ERRORS['404 record not found (captured)'] } : paged(request));
    const error = await failure(
      (async () => {
        for await (const _ of client().iterate('anime')) void _;
      })(),
    );
    expect(error).toBeInstanceOf(NotFoundError);
  });
});

test.describe('get', () => {
  test('the 2023 capture of /anime/973', async () => {
    route = () => ({ json: fixture('anime-973.2023-capture.json') });
    const doc = await client().get('anime', '973', { fields: { anime: ['slug', 'titles'] } });
    expect(media.requests[0]!.url).toBe('/api/edge/anime/973?fields%5Banime%5D=slug,titles');
    expect(doc.data!.type).toBe('anime');
    expect(doc.data!.attributes.slug).toBe('macross');
    expect(doc.data!.links?.self).toBe('https://kitsu.io/api/edge/anime/973');
    expect(doc.included).toEqual([]);
  });

  test('included resources resolve through resolveRelationship; a hidden adult include is null', async () => {
    route = () => ({
      json: {
        data: resource('libraryEntries', '4', { status: 'current' }, { anime: { data: null }, user: { data: { type: 'users', id: '1' } } }),
        included: [resource('users', '1', { name: 'alice' })],
      },
    });
    const doc = await client(undefined).get('library-entries', '4', { include: ['anime', 'user'] });
    expect(lastQuery().get('include')).toBe('anime,user');
    expect(resolveRelationship(doc, doc.data!, 'anime')).toBeNull();
    expect(resolveRelationship(doc, doc.data!, 'user')).toMatchObject({ id: '1', attributes: { name: 'alice' } });
  });

  test('ids are path segments, encoded', async () => {
    route = () => ({ json: { data: null } });
    const doc = await client().get('anime', 'a/b c');
    expect(media.requests[0]!.url).toBe('/api/edge/anime/a%2Fb%20c');
    expect(doc.data).toBeNull();
  });
});

test.describe('writes', () => {
  test('create POSTs {data: {type, attributes, relationships}} as application/vnd.api+json and answers the 201 document', async () => {
    route = () => ({
      status: 201,
      headers: { location: `${media.baseUrl}/library-entries/77` },
      json: { data: resource('libraryEntries', '77', { status: 'planned' }) },
    });
    const doc = await client().create(
      'library-entries',
      'libraryEntries',
      { status: 'planned' },
      { anime: { type: 'anime', id: '1' }, user: { data: { type: 'users', id: '1' } } },
    );
    const sent = media.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/api/edge/library-entries');
    expect(sent.headers['content-type']).toBe('application/vnd.api+json');
    expect(JSON.parse(sent.body)).toEqual({
      data: {
        type: 'libraryEntries',
        attributes: { status: 'planned' },
        relationships: { anime: { data: { type: 'anime', id: '1' } }, user: { data: { type: 'users', id: '1' } } },
      },
    });
    expect(doc.data!.id).toBe('77');
    expect(doc.response.headers['location']).toBe(`${media.baseUrl}/library-entries/77`);
  });

  test('update PATCHes {data: {id, type, attributes}}; destroy DELETEs and takes the 204', async () => {
    route = (request) => (request.method === 'DELETE' ? { status: 204 } : { json: { data: resource('libraryEntries', '7', { progress: 3 }) } });
    const updated = await client().update('library-entries', '7', 'libraryEntries', { progress: 3 });
    expect(media.requests[0]!.method).toBe('PATCH');
    expect(JSON.parse(media.requests[0]!.body)).toEqual({ data: { id: '7', type: 'libraryEntries', attributes: { progress: 3 } } });
    expect(updated.data!.attributes.progress).toBe(3);
    await expect(client().destroy('library-entries', '7')).resolves.toBeUndefined();
    expect(media.requests[1]!.method).toBe('DELETE');
    expect(media.requests[1]!.url).toBe('/api/edge/library-entries/7');
  });
});

test.describe('typed errors (field notes: Errors; fixtures/media/errors.json)', () => {
  test('404 Record not found: NotFoundError with the first error, the adult-content hint and the fix', async () => {
    route = () => ({ status: 404, json: ERRORS['404 record not found (captured)'] });
    const error = (await failure(client().get('anime', '0'))) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(MediaApiError);
    expect(error.code).toBe('MEDIA_ERR_NOT_FOUND');
    expect(error.status).toBe(404);
    expect(error.method).toBe('GET');
    expect(error.url).toBe(`${media.baseUrl}/anime/0`);
    expect(error.errors).toEqual([{ title: 'Record not found', detail: 'The record identified by 0 could not be found.', code: '404', status: '404' }]);
    expect(error.message).toBe(
      `Media API answered 404 Not Found to GET ${media.baseUrl}/anime/0 ("Record not found: The record identified by 0 could not be found."). ` +
        'The record does not exist, or it is hidden from this caller: adult-flagged media answer 404 to anonymous requests. ' +
        'Fix: check the collection and the id; for adult media, sign in as a user who allows adult content.',
    );
  });

  test('404 Route Not Found (integer status): NotFoundError that points at the path', async () => {
    route = () => ({ status: 404, json: ERRORS['404 route not found (server code)'] });
    const error = (await failure(client().list('nope'))) as NotFoundError;
    expect(error.errors).toEqual([{ status: 404, title: 'Route Not Found' }]);
    expect(error.message).toContain('("Route Not Found")');
    expect(error.message).toContain('Fix: check the path; every route is under /api/edge.');
  });

  test('422: ValidationError with pointers to messages', async () => {
    route = () => ({ status: 422, json: ERRORS['422 validation (detail confirmed by a client)'] });
    const error = (await failure(client().create('library-entries', 'libraryEntries', {}))) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('MEDIA_ERR_VALIDATION');
    expect(error.pointers).toEqual({ '/data/attributes/animeId': ['has already been taken'] });
    expect(error.message).toContain('("has already been taken: animeId - has already been taken")');
    expect(error.message).toContain('Refused: /data/attributes/animeId: has already been taken.');
  });

  test('403: ForbiddenError', async () => {
    route = () => ({ status: 403, json: ERRORS['403 forbidden (server code)'] });
    const error = await failure(client().update('library-entries', '1', 'libraryEntries', { progress: 1 }));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toContain('("Update Forbidden: You don\'t have permission to update this library entry.")');
    expect(error.message).toMatch(/Fix: act as the resource's owner/);
  });

  test('401 Invalid token: UnauthorizedError says the token is expired or revoked and to sign in again', async () => {
    route = () => ({ status: 401, json: ERRORS['401 invalid token (server code)'] });
    const error = await failure(client().list('anime'));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.message).toContain('The access token is expired or revoked.');
    expect(error.message).toContain('Fix: sign in again');
    expect(error.message).not.toContain(TOKEN);
  });

  test('400s are MediaApiErrors naming the parameter; an integer status from a custom controller is kept', async () => {
    route = () => ({ status: 400, json: ERRORS['400 invalid include (server code)'] });
    const include = (await failure(client().list('anime', { include: ['media_relationships'] }))) as MediaApiError;
    expect(include.constructor).toBe(MediaApiError);
    expect(include.code).toBe('MEDIA_ERR_API');
    expect(include.message).toContain('("Invalid field: media_relationships is not a valid relationship of anime")');
    expect(include.message).toContain('page[limit] is at most 20');

    route = () => ({ status: 400, json: ERRORS['400 custom controller (server code)'] });
    const noFilter = (await failure(client().list('library-entries'))) as MediaApiError;
    expect(noFilter.errors).toEqual([{ status: 400, detail: 'No filter provided' }]);
    expect(noFilter.message).toContain('("No filter provided")');
  });

  test('send never throws on a status', async () => {
    for (const [status, body] of [
      [404, ERRORS['404 record not found (captured)']],
      [401, ERRORS['401 invalid token (server code)']],
      [422, ERRORS['422 validation (detail confirmed by a client)']],
      [500, { errors: [{ status: '500', title: 'Internal Server Error' }] }],
    ] as const) {
      route = () => ({ status, json: body });
      const res = await client().send({ method: 'GET', path: '/anime/0', retry: false });
      expect(res.status).toBe(status);
      expect(res.document).toEqual(body);
    }
  });

  test('an error echoing the token shows it redacted', async () => {
    route = () => ({ status: 400, json: errorDocument({ status: '400', title: 'Bad', detail: `token ${TOKEN} is odd` }) });
    const error = (await failure(client().list('anime'))) as MediaApiError;
    expect(error.message).not.toContain(TOKEN);
    expect(JSON.stringify(error.errors)).not.toContain(TOKEN);
    expect(JSON.stringify(error.body)).not.toContain(TOKEN);
    expect(error.message).toContain('[REDACTED]');
  });
});
