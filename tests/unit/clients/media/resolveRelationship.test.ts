import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { resolveRelationship } from '../../../../src/clients/media/resolveRelationship.ts';
import type { JsonApiDocument, ResourceObject } from '../../../../src/clients/media/types.ts';

const links = (name: string) => ({ self: `https://media.example/api/edge/x/relationships/${name}`, related: `https://media.example/api/edge/x/${name}` });

const entry: ResourceObject = {
  id: '4',
  type: 'libraryEntries',
  attributes: { status: 'current' },
  relationships: {
    anime: { links: links('anime'), data: { type: 'anime', id: '7' } },
    manga: { links: links('manga'), data: null },
    user: { links: links('user') },
    categories: {
      data: [
        { type: 'categories', id: '2' },
        { type: 'categories', id: '99' },
        { type: 'categories', id: '1' },
      ],
    },
    unit: { data: { type: 'episodes', id: '404' } },
  },
};
const doc: JsonApiDocument = {
  data: entry,
  included: [
    { id: '7', type: 'anime', attributes: { canonicalTitle: 'Macross' } },
    { id: '1', type: 'categories', attributes: { title: 'Mecha' }, relationships: {} },
    { id: '2', type: 'categories', attributes: { title: 'Space' }, relationships: {} },
  ],
};

test('to-one: the included resource, normalised (relationships always an object)', () => {
  expect(resolveRelationship(doc, entry, 'anime')).toEqual({ id: '7', type: 'anime', attributes: { canonicalTitle: 'Macross' }, relationships: {} });
});

test('to-one with data null (a hidden adult title): null', () => {
  expect(resolveRelationship(doc, entry, 'manga')).toBeNull();
});

test('links only (not included) or no such relationship: undefined', () => {
  expect(resolveRelationship(doc, entry, 'user')).toBeUndefined();
  expect(resolveRelationship(doc, entry, 'genres')).toBeUndefined();
  expect(resolveRelationship(doc, { id: '1', type: 'anime' }, 'categories')).toBeUndefined();
});

test('to-many: in linkage order, identifiers the document does not carry left out', () => {
  const categories = resolveRelationship(doc, entry, 'categories') as ResourceObject[];
  expect(categories.map((c) => c.attributes?.title)).toEqual(['Space', 'Mecha']);
  // The included objects themselves, not copies, when they are already complete.
  expect(categories[0]).toBe(doc.included![2]);
});

test('to-one pointing at nothing the document carries: undefined', () => {
  expect(resolveRelationship(doc, entry, 'unit')).toBeUndefined();
});

test('full linkage into primary data: a collection whose resources point at each other', () => {
  const a: ResourceObject = { id: '1', type: 'anime', relationships: { sequel: { data: { type: 'anime', id: '2' } } } };
  const b: ResourceObject = { id: '2', type: 'anime', attributes: { slug: 'b' } };
  expect(resolveRelationship({ data: [a, b] }, a, 'sequel')).toMatchObject({ id: '2', attributes: { slug: 'b' } });
});
