/**
 * Timestamps as the Store API writes them (rule store.timestamps.format):
 * `YYYY-MM-DDTHH:MM:SS+0000`, UTC, whole seconds, no colon in the offset.
 */

/** The last instant with a four-digit year; clocks are kept below it. */
export const LATEST_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 0);

// A list page formats hundreds of stored instants, and the same ones again on every read: formatting
// was a fifth of a product page's cost (npm run bench, --cpu-prof). Bounded, so a long run cannot grow it.
const FORMATTED = new Map<number, string>();
const FORMATTED_LIMIT = 50_000;

export function formatTimestamp(ms: number): string {
  const known = FORMATTED.get(ms);
  if (known !== undefined) return known;
  const iso = new Date(ms).toISOString(); // RangeError for NaN and out-of-range instants
  if (iso.length !== 24) throw new RangeError(`formatTimestamp: ${ms} ms is outside the years 0000-9999`);
  const formatted = `${iso.slice(0, 19)}+0000`;
  if (FORMATTED.size >= FORMATTED_LIMIT) FORMATTED.clear();
  FORMATTED.set(ms, formatted);
  return formatted;
}

/**
 * Instants are stored at whole seconds, as responses show them, so a filter
 * given a timestamp a client read back matches the resource it came from.
 */
export function toWholeSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

// Date, optional time, optional offset (Z, +0000, -03:00, +03). A space stands
// for `+`: an unencoded `+` in a query string arrives as a space.
const TIMESTAMP_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+\- ]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Reads a date filter (created_at_min and friends): ISO 8601 date or
 * date-time, offset optional (UTC when absent). Returns undefined when the
 * text is not such a date, so the caller can answer 400 naming the parameter.
 */
export function parseTimestamp(text: string): number | undefined {
  const match = TIMESTAMP_INPUT.exec(text.trim());
  if (!match) return undefined;
  const [, y = '', mo = '', d = '', h = '0', mi = '0', s = '0', fraction = '', offset = 'Z'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // setUTCFullYear keeps years 0-99 literal, Date.UTC would not
  if (date.getUTCMonth() !== month - 1) return undefined; // 2025-02-30
  date.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  let ms = date.getTime();
  if (offset.toUpperCase() !== 'Z') {
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMinutes = Number(digits.slice(2) || '0');
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    ms -= sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  return ms;
}
