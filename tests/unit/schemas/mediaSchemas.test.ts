import { readFileSync } from 'node:fs';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { schemaRegistry } from '../../../src/schemas/schemaRegistry.ts';
import { formatIssues, validate } from '../../../src/schemas/validate.ts';

const FIXTURES = new URL('../../captured/media/', import.meta.url);

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
}

function expectValid(schemaId: string, data: unknown): void {
  const result = validate(schemaId, data);
  expect(result.valid, `expected a valid ${schemaId}:\n${formatIssues(result.errors)}`).toBe(true);
}

/** Validates, expects a failure, and returns the readable lines. */
function rejected(schemaId: string, data: unknown): string {
  const result = validate(schemaId, data);
  expect(result.valid, `expected ${schemaId} to reject ${JSON.stringify(data)}`).toBe(false);
  return formatIssues(result.errors);
}

type Schema = { title?: string; description?: string; allOf?: { $ref?: string }[]; properties?: Record<string, Schema>; enum?: unknown[] };
const schemaOf = (name: string) => schemaRegistry().entry(`media/${name}`).schema as Schema;
const attributesOf = (name: string) => Object.keys(schemaOf(name).properties?.attributes?.properties ?? {});

function anime(attributes: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) {
  return {
    id: '1',
    type: 'anime',
    links: { self: 'https://media.example/api/edge/anime/1' },
    attributes: { canonicalTitle: 'Cowboy Bebop', ...attributes },
    ...overrides,
  };
}

test.describe('real captures (fixtures/media)', () => {
  test('GET /anime?page[limit]=2 (2018) is a collection of anime', () => {
    expectValid('media/anime-collection', fixture('anime-collection.2018-capture.json'));
    expectValid('media/collection', fixture('anime-collection.2018-capture.json'));
    expectValid('media/document', fixture('anime-collection.2018-capture.json'));
  });

  test('anime 973 (2023) is an anime document', () => {
    expectValid('media/anime-document', fixture('anime-973.2023-capture.json'));
    expectValid('media/document', fixture('anime-973.2023-capture.json'));
    expectValid('media/anime', (fixture('anime-973.2023-capture.json') as { data: unknown }).data);
  });

  test('the library entries (2016: on_hold, no createdAt, no relationships) are a library-entry collection', () => {
    expectValid('media/library-entry-collection', fixture('library-entries.2016-capture.json'));
    expectValid('media/collection', fixture('library-entries.2016-capture.json'));
  });

  for (const [name, body] of Object.entries(fixture('errors.json') as Record<string, unknown>)) {
    test(`error document: ${name}`, () => {
      expectValid('media/error-document', body);
      expectValid('media/document', body);
    });
  }

  test('one capture is not another type: the anime collection is not a library-entry collection', () => {
    expect(rejected('media/library-entry-collection', fixture('anime-collection.2018-capture.json'))).toContain(
      '/data/0/type: must be "libraryEntries" (got string "anime")',
    );
    expect(rejected('media/manga-document', fixture('anime-973.2023-capture.json'))).toContain('/data/type: must be "manga" (got string "anime")');
  });
});

test.describe('JSON:API document rules', () => {
  test('data and errors never together', () => {
    expect(rejected('media/document', { data: null, errors: [{ status: '500' }] })).toContain('(root): must not be a document with both data and errors');
    expect(rejected('media/error-document', { data: [], errors: [{ status: '404' }] })).toContain('must not be a document with both data and errors');
  });

  test('a document has data, errors or meta; included only beside data', () => {
    expect(rejected('media/document', {})).toContain('must be a document with data, errors or meta');
    expectValid('media/document', { meta: { count: 0 } });
    rejected('media/document', { meta: {}, included: [] });
    expectValid('media/document', { data: null, included: [] });
  });

  test('ids are strings: of resources and of relationship data', () => {
    expect(rejected('media/document', { data: { id: 1, type: 'anime' } })).toContain('/data/id: must be a string id (got number 1)');
    const linked = anime({}, { relationships: { categories: { data: [{ id: 2, type: 'categories' }] } } });
    expect(rejected('media/anime', linked)).toContain('/relationships/categories/data: must be resource linkage');
  });

  test('a relationship is links, data (identifier, null or array) or meta; a links-only one is fine', () => {
    const links = { self: 'https://x/api/edge/anime/1/relationships/media', related: 'https://x/api/edge/anime/1/media' };
    for (const data of [null, { id: '1', type: 'anime' }, [{ id: '1', type: 'categories' }]]) expectValid('media/relationship', { links, data });
    expectValid('media/relationship', { links });
    expect(rejected('media/relationship', {})).toContain('must be a relationship with links, data or meta');
    rejected('media/relationship', { data: 'anime/1' });
  });

  test('resource types are non-empty strings (camelCase is a field note, not enforced on every answer); attributes and relationships are objects', () => {
    // The field notes' camelCase types are observed by media.jsonapi.camel-case-members, never a schema breach on live.
    expectValid('media/resource', { id: '1', type: 'library-entries' });
    rejected('media/resource', { id: '1', type: '' });
    rejected('media/resource', { id: '1', type: 7 });
    rejected('media/resource', { id: '1', type: 'anime', attributes: [] });
    rejected('media/resource', { id: '1', type: 'anime', relationships: { genres: 'none' } });
  });

  test('a collection has an array of data, an integer meta.count when it has one, and string page links', () => {
    const ok = { data: [anime()], meta: { count: 1 }, links: { first: 'https://x/a?page%5Boffset%5D=0', last: 'https://x/a?page%5Boffset%5D=0' } };
    expectValid('media/anime-collection', ok);
    // The contract leaves meta open: where the client or the pact reads meta.count, the reliance rule checks it.
    expectValid('media/collection', { ...ok, meta: {} });
    expectValid('media/collection', { data: [anime()] });
    rejected('media/collection', { ...ok, meta: { count: '1' } });
    rejected('media/collection', { ...ok, data: anime() });
    rejected('media/collection', { ...ok, links: { next: 2 } });
  });

  test('a link that is not there may be null (JSON:API): page links, a resource links.self, a relationship links.self and related', () => {
    // JSON:API, Pagination: "Keys MUST either be omitted or have a null value to indicate that a particular link is unavailable".
    const first = 'https://x/api/edge/anime?page%5Boffset%5D=0';
    expectValid('media/anime-collection', { data: [anime()], meta: { count: 1 }, links: { first, prev: null, next: null, last: first } });
    expectValid('media/anime-document', { data: anime({}, { links: { self: null } }) });
    expectValid('media/relationship', { links: { self: null, related: 'https://x/api/edge/anime/1/categories' } });
    // A link object is a link too (JSON:API): where nothing of the harness reads the string, the schemas take it.
    expectValid('media/relationship', { links: { related: { href: 'https://x/api/edge/anime/1/categories' } } });
    expectValid('media/anime-document', { data: anime({}, { links: { self: { href: 'https://x/api/edge/anime/1' } } }) });
    rejected('media/relationship', { links: { self: 7 } });
    rejected('media/collection', { data: [anime()], links: { next: false } });
  });

  test('error objects: status a string code or an integer; code a string; source.pointer a JSON pointer', () => {
    expectValid('media/error', { status: 404, title: 'Route Not Found' });
    expectValid('media/error', { status: '422', code: '100', source: { pointer: '/data/attributes/animeId' } });
    expect(rejected('media/error', { status: 'oops' })).toContain('/status: must be an HTTP status code');
    rejected('media/error', { status: 42 });
    rejected('media/error', { code: 100 });
    rejected('media/error', { source: { pointer: 'data/attributes/animeId' } });
    rejected('media/error-document', { errors: [] });
  });
});

test.describe('resource types (field notes: Resources)', () => {
  test('anime and manga are composed from media-base, not copies of it', () => {
    for (const kind of ['anime', 'manga']) {
      expect(schemaOf(kind).allOf).toEqual([{ $ref: 'media-base.schema.json' }]);
      expect(attributesOf(kind).filter((name) => attributesOf('media-base').includes(name))).toEqual([]);
    }
    for (const kind of ['media-base', 'episode', 'category', 'library-entry']) expect(schemaOf(kind).allOf).toEqual([{ $ref: 'resource.schema.json' }]);
  });

  test('the adult age rating is MEDIA_CONTRACT.adultAgeRating', () => {
    const ageRating = schemaOf('media-base').properties!.attributes!.properties!.ageRating!;
    expect(ageRating.enum).toContain(MEDIA_CONTRACT.adultAgeRating);
    expectValid('media/anime', anime({ ageRating: MEDIA_CONTRACT.adultAgeRating, nsfw: true }));
  });

  test('media base attributes are typed where the field notes name them; others are open', () => {
    expect(rejected('media/anime', anime({ ageRating: 'NC-17' }))).toContain('/attributes/ageRating: must be one of');
    expect(rejected('media/manga', { id: '1', type: 'manga', attributes: { status: 'airing' } })).toContain('/attributes/status: must be one of');
    expect(rejected('media/anime', anime({ averageRating: 88.54 }))).toContain('/attributes/averageRating');
    rejected('media/anime', anime({ userCount: '43560' }));
    rejected('media/anime', anime({ startDate: '03/04/1998' }));
    rejected('media/anime', anime({ createdAt: 'yesterday' }));
    expectValid('media/anime', anime({ averageRating: null, startDate: null, coverImage: null, ageRating: null, somethingNew: { any: 'thing' } }));
  });

  test('anime and manga add their own attributes', () => {
    rejected('media/anime', anime({ episodeCount: '26' }));
    rejected('media/anime', anime({ nsfw: 'no' }));
    rejected('media/manga', { id: '1', type: 'manga', attributes: { chapterCount: 'many' } });
    expectValid('media/manga', { id: '1', type: 'manga', attributes: { chapterCount: 10, volumeCount: null, serialization: 'Weekly', mangaType: 'manga' } });
    expectValid('media/media-base', { id: '1', type: 'manga', attributes: { chapterCount: 'not checked by the base' } });
    rejected('media/media-base', { id: '1', type: 'episodes' });
  });

  test('episodes and categories', () => {
    expectValid('media/episode-document', {
      data: {
        id: '1',
        type: 'episodes',
        attributes: {
          titles: { en_jp: 'Asteroid Blues' },
          canonicalTitle: 'Asteroid Blues',
          seasonNumber: 1,
          number: 1,
          relativeNumber: 1,
          airdate: '1998-10-24',
          length: 24,
          thumbnail: null,
        },
        relationships: { media: { data: { type: 'anime', id: '1' } }, videos: { links: { related: 'https://x/api/edge/episodes/1/videos' } } },
      },
      included: [anime()],
    });
    rejected('media/episode', { id: '1', type: 'episodes', attributes: { number: '1' } });
    expectValid('media/category-collection', {
      data: [
        { id: '1', type: 'categories', attributes: { title: 'Mecha', description: null, slug: 'mecha', nsfw: false, childCount: 0, totalMediaCount: 512 } },
      ],
      meta: { count: 1 },
    });
    rejected('media/category', { id: '1', type: 'categories', attributes: { nsfw: 'false' } });
  });

  test('library entries: status is current|planned|completed|on_hold|dropped (snake_case, unlike meta.statusCounts)', () => {
    const entry = (status: string) => ({ id: '1', type: 'libraryEntries', attributes: { status } });
    for (const status of ['current', 'planned', 'completed', 'on_hold', 'dropped']) expectValid('media/library-entry', entry(status));
    expect(rejected('media/library-entry', entry('onHold'))).toContain('/attributes/status: must be one of');
    rejected('media/library-entry-collection', { data: [], meta: { count: 0, statusCounts: { current: 'many' } } });
  });

  test('the OAuth token answer has every member the field notes list; an OAuth refusal is {error, error_description}', () => {
    const token = {
      access_token: 'a',
      token_type: 'Bearer',
      expires_in: MEDIA_CONTRACT.tokenLifetimeSeconds,
      refresh_token: 'r',
      scope: 'public',
      created_at: 1_700_000_000,
    };
    expectValid('media/oauth-token', token);
    expect(rejected('media/oauth-token', { ...token, refresh_token: undefined })).toContain('/refresh_token: required member is missing');
    rejected('media/oauth-token', { ...token, token_type: 'mac' });
    expectValid('media/oauth-error', { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid.' });
    rejected('media/oauth-error', { errors: [{ title: 'Invalid token' }] });
  });
});

test('every media schema says what it is and which part of the spec or field notes it encodes', () => {
  const names = schemaRegistry().names.filter((name) => name.startsWith('media/'));
  expect(names.length).toBeGreaterThanOrEqual(26);
  for (const name of names) {
    const schema = schemaRegistry().entry(name).schema as Schema;
    expect(schema.title, `${name} has a title`).toBeTruthy();
    expect(schema.description, `${name} cites the spec`).toMatch(/Spec: media-tracking-api\.md, /);
  }
});
