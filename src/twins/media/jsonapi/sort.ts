/**
 * `sort=-averageRating,startDate` (media.jsonapi.sort): ascending unless prefixed with `-`; nulls
 * last either way (as the real BaseResource orders); ties by id. An unknown key is media.errors.bad-query-400.
 */
import type { MediaState } from '../mediaState.ts';
import { compareIds, type MediaRecord } from '../model.ts';
import type { ResourceDefinition } from '../resources/define.ts';
import { invalidSort } from './errors.ts';
import { camelize } from './names.ts';

export type RecordComparator = (a: MediaRecord, b: MediaRecord) => number;

function sortValue(definition: ResourceDefinition, state: MediaState, record: MediaRecord, name: string): unknown {
  if (name === 'id') return record.id;
  const spec = definition.attributes[name];
  const value = spec?.compute ? spec.compute(record, state) : record.attributes[name];
  // Decimal strings (averageRating "88.54") sort as numbers.
  if (spec?.kind === 'decimal' && typeof value === 'string' && value.trim() !== '') return Number(value);
  return value;
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const left = String(a);
  const right = String(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

export function compileSort(definition: ResourceDefinition, raw: string | undefined, state: MediaState): RecordComparator {
  const keys: { name: string; descending: boolean }[] = [];
  if (raw !== undefined && raw.trim() !== '') {
    for (const token of raw.split(',')) {
      const trimmed = token.trim();
      const descending = trimmed.startsWith('-');
      const written = descending ? trimmed.slice(1) : trimmed;
      const name = camelize(written);
      if (written === '' || !definition.sortable.includes(name)) throw invalidSort(written, definition.type);
      keys.push({ name, descending });
    }
  }
  return (a, b) => {
    for (const { name, descending } of keys) {
      const left = sortValue(definition, state, a, name);
      const right = sortValue(definition, state, b, name);
      const leftMissing = left === null || left === undefined;
      const rightMissing = right === null || right === undefined;
      if (leftMissing || rightMissing) {
        if (leftMissing && rightMissing) continue;
        return leftMissing ? 1 : -1;
      }
      const order = name === 'id' ? compareIds(String(left), String(right)) : compareValues(left, right);
      if (order !== 0) return descending ? -order : order;
    }
    return compareIds(a.id, b.id);
  };
}
