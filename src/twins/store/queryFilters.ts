import { StoreApiError } from './errors.ts';
import { parseTimestamp } from './timestamps.ts';

/**
 * Readers of collection filters (store.products.filters). A bad value answers
 * 400 naming the parameter; an empty value (`since_id=`) counts as absent.
 */

function present(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value.trim() === '' ? undefined : value.trim();
}

export function readIdFilter(query: URLSearchParams, name: string): number | undefined {
  const value = present(query, name);
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,15}$/.test(value)) throw StoreApiError.standard(400, `${name} must be a non-negative integer`);
  return Number(value);
}

export function readBooleanFilter(query: URLSearchParams, name: string): boolean | undefined {
  const value = present(query, name)?.toLowerCase();
  if (value === undefined) return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw StoreApiError.standard(400, `${name} must be true or false`);
}

export function readTextFilter(query: URLSearchParams, name: string): string | undefined {
  return present(query, name);
}

/** created_at_min/max and updated_at_min/max, inclusive bounds in ms. */
export interface TimeWindow {
  readonly createdMin?: number;
  readonly createdMax?: number;
  readonly updatedMin?: number;
  readonly updatedMax?: number;
}

export function readTimeWindow(query: URLSearchParams): TimeWindow {
  const read = (name: string): number | undefined => {
    const value = present(query, name);
    if (value === undefined) return undefined;
    const ms = parseTimestamp(value);
    if (ms === undefined) {
      throw StoreApiError.standard(400, `${name} must be an ISO 8601 date or date-time, e.g. 2025-01-31T00:00:00+0000`);
    }
    return ms;
  };
  const window: { -readonly [K in keyof TimeWindow]: TimeWindow[K] } = {};
  const bounds = [
    ['createdMin', 'created_at_min'],
    ['createdMax', 'created_at_max'],
    ['updatedMin', 'updated_at_min'],
    ['updatedMax', 'updated_at_max'],
  ] as const;
  for (const [key, name] of bounds) {
    const ms = read(name);
    if (ms !== undefined) window[key] = ms;
  }
  return window;
}

export function inTimeWindow(window: TimeWindow, createdAt: number, updatedAt: number): boolean {
  return (
    (window.createdMin === undefined || createdAt >= window.createdMin) &&
    (window.createdMax === undefined || createdAt <= window.createdMax) &&
    (window.updatedMin === undefined || updatedAt >= window.updatedMin) &&
    (window.updatedMax === undefined || updatedAt <= window.updatedMax)
  );
}

/** `fields=id,name`: the keys to keep; undefined means all. */
export function readFields(query: URLSearchParams): ReadonlySet<string> | undefined {
  const value = present(query, 'fields');
  if (value === undefined) return undefined;
  const fields = value
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
  return fields.length > 0 ? new Set(fields) : undefined;
}

/** Only the requested keys, in the resource's own order; unknown names are ignored. */
export function pickFields(rendered: Record<string, unknown>, fields: ReadonlySet<string> | undefined): Record<string, unknown> {
  if (fields === undefined) return rendered;
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rendered)) {
    if (fields.has(key)) picked[key] = value;
  }
  return picked;
}
