/**
 * The JSON:API query families of the Media API (include, fields[type],
 * filter[name], sort, page[name]) as ASSUMPTIONS.md documents them ("Documents
 * and queries", "Pagination"): odd values for the fuzzer, and the verdict on a
 * query an index route gets. Names and limits come from the twin's registry,
 * which ASSUMPTIONS.md names as the one table of types, filters and sorts.
 */
import fc from 'fast-check';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { definitionForType } from '../../../src/twins/media/registry.ts';
import type { ResourceDefinition } from '../../../src/twins/media/resources/define.ts';
import { oddNumberTextArb, oddPathValueArb, queryTextArb } from '../malformedValues.ts';
import type { Verdict } from '../verdict.ts';

/** One odd parameter; `type` is the route's resource type, for a fieldset naming a member it lacks. */
export function mediaQueryParamArb(type: string): fc.Arbitrary<readonly [string, string]> {
  return fc.oneof(
    fc.tuple(fc.constantFrom('page[limit]', 'page[offset]'), oddNumberTextArb),
    fc.tuple(fc.constantFrom('page[zz]', 'page', 'filter', 'fields', 'filter[a][b]', 'fields[anime][x]', 'page[limit][x]'), fc.constantFrom('1', 'x')),
    fc.tuple(fc.constant('filter[id]'), fc.oneof(oddPathValueArb, fc.constantFrom('1', '2,3', '_none', '1,abc', '', '1,,2'))),
    fc.tuple(fc.constant('filter[zzFuzz]'), queryTextArb),
    fc.tuple(fc.constant('sort'), fc.constantFrom('zzfuzz', '-zzfuzz', 'id', '-id', 'id,-id')),
    fc.tuple(fc.constant('include'), fc.constantFrom('zzfuzz', '__proto__', 'constructor', 'zzfuzz.x')),
    fc.tuple(fc.constantFrom('fields[zzFuzz]', `fields[${type}]`), fc.constantFrom('zzfuzz', '__proto__')),
    fc.tuple(fc.constantFrom('zz_fuzz', 'foo[bar]', 'limit'), queryTextArb),
  );
}

const FAMILY = /^(fields|filter|page)\[([^[\]]*)\](.*)$/;

/** "Malformed query families: fields=x 400 (119), filter=x or filter[a][b] 400 (120), page=x 400 (117)": in any position. */
export function malformedFamily(query: URLSearchParams): boolean {
  return [...query.keys()].some((key) => ['fields', 'filter', 'page'].includes(key) || (FAMILY.exec(key)?.[3] ?? '') !== '');
}

/** The last value of each family member ("a repeated parameter keeps its last value"). */
function members(query: URLSearchParams, family: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of query) {
    const match = FAMILY.exec(key);
    if (match?.[1] === family) found.set(match[2] ?? '', value);
  }
  return found;
}

function last(query: URLSearchParams, key: string): string | undefined {
  const values = query.getAll(key);
  return values[values.length - 1];
}

const worst = (verdicts: readonly Verdict[]): Verdict => (verdicts.includes('refused') ? 'refused' : verdicts.includes('unclear') ? 'unclear' : 'accepted');

/** "an unknown name is 400 Invalid field (112)"; only the first step of a path is judged, deeper ones are unclear. */
export function includeVerdict(query: URLSearchParams, definition: ResourceDefinition): Verdict {
  const include = last(query, 'include');
  if (include === undefined) return 'accepted';
  const paths = include
    .split(',')
    .map((path) => path.trim())
    .filter((path) => path !== '');
  return worst(
    paths.map((path) => (Object.hasOwn(definition.relationships, path.split('.')[0] ?? '') ? (path.includes('.') ? 'unclear' : 'accepted') : 'refused')),
  );
}

/** "A bad sparse field is 400 Invalid field ...; an unknown type in fields[...] is 400 Invalid resource (101)". */
export function fieldsVerdict(query: URLSearchParams): Verdict {
  return worst(
    [...members(query, 'fields')].map(([type, list]) => {
      const definition = definitionForType(type);
      if (!definition) return 'refused';
      const names = list
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '');
      return names.every((name) => Object.hasOwn(definition.attributes, name) || Object.hasOwn(definition.relationships, name)) ? 'accepted' : 'refused';
    }),
  );
}

/** "an unknown filter is 400 Filter not allowed (102); a non-numeric id value (filter[id], ...) is 400 Invalid field value (103)"; values are comma lists, `_none` for null. */
function filterVerdict(query: URLSearchParams, definition: ResourceDefinition): Verdict {
  return worst(
    [...members(query, 'filter')].map(([name, value]) => {
      if (name !== 'id') return Object.hasOwn(definition.filters, name) ? 'unclear' : 'refused';
      const tokens = value.split(',').map((token) => token.trim());
      return tokens.every((token) => token === '_none' || /^\d{1,30}$/.test(token)) ? 'accepted' : 'refused';
    }),
  );
}

/** "sort takes id and the attributes marked sortable ...; an unknown key is 400 Invalid sort criteria (114)". */
function sortVerdict(query: URLSearchParams, definition: ResourceDefinition): Verdict {
  const sort = last(query, 'sort');
  if (sort === undefined) return 'accepted';
  const keys = sort.split(',').map((key) => key.trim().replace(/^-/, ''));
  if (keys.some((key) => !(key === 'id' || definition.sortable.includes(key)) && key !== '')) return 'refused';
  // An empty key names no criteria: whether it is ignored or refused is not documented.
  return keys.includes('') ? 'unclear' : 'accepted';
}

/**
 * "page[limit] must be a whole number from 1 to the maximum and page[offset] a
 * whole number ...; another page parameter is 400"; unpaginated collections
 * have no maximum. Whitespace around a number is left unclear.
 */
function pageVerdict(query: URLSearchParams, collection: string): Verdict {
  const max = MEDIA_CONTRACT.unpaginatedCollections.includes(collection)
    ? Number.MAX_SAFE_INTEGER
    : (MEDIA_CONTRACT.maxLimitByCollection[collection] ?? MEDIA_CONTRACT.maxLimit);
  const whole = (value: string, min: number, top: number): Verdict => {
    if (value.trim() !== value) return 'unclear';
    const number = Number(value);
    return /^\d+$/.test(value) && Number.isSafeInteger(number) && number >= min && number <= top ? 'accepted' : 'refused';
  };
  return worst(
    [...members(query, 'page')].map(([name, value]) => {
      if (name === 'limit') return whole(value, 1, max);
      if (name === 'offset') return whole(value, 0, Number.MAX_SAFE_INTEGER);
      return 'refused';
    }),
  );
}

/** The verdict on the query of a standard index of `collection`; library entries also need a filter ("or answer 400 No filter provided"). */
export function indexQueryVerdict(query: URLSearchParams, definition: ResourceDefinition, collection: string): Verdict {
  if (malformedFamily(query)) return 'refused';
  const verdict = worst([
    includeVerdict(query, definition),
    fieldsVerdict(query),
    filterVerdict(query, definition),
    sortVerdict(query, definition),
    pageVerdict(query, collection),
  ]);
  if (verdict === 'accepted' && definition.requiresFilter && members(query, 'filter').size === 0) return 'refused';
  return verdict;
}
