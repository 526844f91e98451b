/**
 * `filter[name]=a,b` (media.jsonapi.filters): names in camelCase or snake_case, comma lists, `_none`
 * for "no value", ranges such as `80..` (field notes, "Filters, sort, include, fields").
 */
import type { MediaRecord } from '../model.ts';
import { isNumericId, type FilterContext, type ResourceDefinition } from '../resources/define.ts';
import { filterNotAllowed, invalidFieldValue, invalidFilterValue } from './errors.ts';
import { camelize } from './names.ts';
import type { RawFilter } from './query.ts';

export type RecordPredicate = (record: MediaRecord) => boolean;

/** The tokens of a filter value: trimmed, `_none` as null. */
export function filterTokens(value: string): (string | null)[] {
  return value.split(',').map((token) => (token.trim() === '_none' ? null : token.trim()));
}

/** One predicate for all the filters of a request; 400 for a filter or value the resource does not take (media.errors.bad-query-400). */
export function compileFilters(definition: ResourceDefinition, filters: readonly RawFilter[], context: FilterContext): RecordPredicate {
  const checks = filters.map(({ name: raw, value }) => {
    const name = camelize(raw);
    const spec = Object.hasOwn(definition.filters, name) ? definition.filters[name] : undefined;
    if (!spec) throw filterNotAllowed(raw);
    const tokens = filterTokens(value);
    for (const token of tokens) {
      if (token === null) continue;
      if (spec.values === 'id' && !isNumericId(token)) throw invalidFieldValue(name, token);
      if (spec.values === 'other' && spec.accepts && !spec.accepts(token)) throw invalidFilterValue(name, token);
    }
    return (record: MediaRecord) => spec.match(record, tokens, context);
  });
  return (record) => checks.every((check) => check(record));
}
