/**
 * The JSON:API query families of a request: include, fields[type],
 * filter[name], sort and page[name]. Malformed families are 400s here; the
 * names and values are checked against the resource by the other modules.
 */
import { ERROR_CODES, JsonApiError } from './errors.ts';

export interface RawFilter {
  /** The name as the client wrote it (`user_id` or `userId`). */
  readonly name: string;
  readonly value: string;
}

export interface JsonApiQuery {
  readonly include: string | undefined;
  /** Type as written → comma list. */
  readonly fields: ReadonlyMap<string, string>;
  readonly filters: readonly RawFilter[];
  readonly sort: string | undefined;
  readonly page: ReadonlyMap<string, string>;
  /** filter, include, fields and sort as sent, which pagination links echo. */
  readonly echo: readonly (readonly [string, string])[];
}

const MEMBER = /^(fields|filter|page)\[([^[\]]*)\](.*)$/;

/** What a request without a query asks: nothing; one shared value, as nothing reads it to change it. */
const NO_QUERY: JsonApiQuery = Object.freeze({
  include: undefined,
  fields: new Map<string, string>(),
  filters: [],
  sort: undefined,
  page: new Map<string, string>(),
  echo: [],
});

/**
 * The JSON:API parameters of a query, kept whole: one loop over the parameters in the order they came: the first malformed one
 * decides the 400, so the refusals stay beside the members they refuse.
 */
export function parseJsonApiQuery(query: URLSearchParams): JsonApiQuery {
  if (query.size === 0) return NO_QUERY;
  let include: string | undefined;
  let sort: string | undefined;
  const fields = new Map<string, string>();
  const filters = new Map<string, string>();
  const page = new Map<string, string>();
  const echo = new Map<string, string>();
  for (const [key, value] of query) {
    if (key === 'include') {
      include = value;
      echo.set(key, value);
      continue;
    }
    if (key === 'sort') {
      sort = value;
      echo.set(key, value);
      continue;
    }
    if (key === 'fields')
      throw JsonApiError.of(400, 'Invalid field format', 'Fields must specify a type: fields[anime]=slug,titles.', ERROR_CODES.invalidFieldFormat);
    if (key === 'filter')
      throw JsonApiError.of(
        400,
        'Invalid filters syntax',
        `filter=${value} is not a valid filter syntax: use filter[name]=value.`,
        ERROR_CODES.invalidFiltersSyntax,
      );
    if (key === 'page')
      throw JsonApiError.of(400, 'Invalid Page Object', 'Invalid Page Object: use page[limit] and page[offset].', ERROR_CODES.invalidPageObject);
    const member = MEMBER.exec(key);
    if (!member) continue; // Other parameters are not JSON:API's; the real service ignores them.
    const [, family = '', name = '', rest = ''] = member;
    if (family === 'fields') {
      if (rest !== '')
        throw JsonApiError.of(400, 'Invalid field format', `${key} is not a valid fieldset: use fields[type]=a,b.`, ERROR_CODES.invalidFieldFormat);
      fields.set(name, value);
      echo.set(key, value);
    } else if (family === 'filter') {
      if (rest !== '')
        throw JsonApiError.of(400, 'Invalid filters syntax', `${key} is not a valid filter syntax: use filter[name]=value.`, ERROR_CODES.invalidFiltersSyntax);
      filters.set(name, value);
      echo.set(key, value);
    } else {
      if (rest !== '') throw JsonApiError.of(400, 'Invalid Page Object', `${key} is not a valid page parameter.`, ERROR_CODES.invalidPageObject);
      page.set(name, value);
    }
  }
  return {
    include,
    fields,
    filters: [...filters].map(([name, value]) => ({ name, value })),
    sort,
    page,
    echo: [...echo],
  };
}
