import type { FieldErrors } from '../errors.ts';
import { parseLocalizedWrite, type LocalizedWrite } from '../localized.ts';

/**
 * Readers of body fields shared by the resources. Each adds a 422 message under
 * the field's name when the value is wrong and returns undefined when the field
 * is absent, so an update only changes what it names.
 */

export function hasField(input: Readonly<Record<string, unknown>>, field: string): boolean {
  return Object.hasOwn(input, field) && input[field] !== undefined;
}

/** A localized field; null clears every language. */
export function readLocalizedField(
  input: Readonly<Record<string, unknown>>,
  field: string,
  languages: readonly string[],
  errors: FieldErrors,
): LocalizedWrite | undefined {
  if (!hasField(input, field)) return undefined;
  const value = input[field];
  const parsed = parseLocalizedWrite(value === null ? '' : value, languages);
  if (parsed.ok) return parsed.write;
  errors.add(field, parsed.message);
  return undefined;
}

export function readBoolean(input: Readonly<Record<string, unknown>>, field: string, errors: FieldErrors): boolean | undefined {
  if (!hasField(input, field)) return undefined;
  const value = input[field];
  if (typeof value === 'boolean') return value;
  errors.add(field, 'must be true or false');
  return undefined;
}

/** A plain string; null reads as "". */
export function readString(input: Readonly<Record<string, unknown>>, field: string, errors: FieldErrors): string | undefined {
  if (!hasField(input, field)) return undefined;
  const value = input[field];
  if (value === null) return '';
  if (typeof value === 'string') return value;
  errors.add(field, 'must be a string');
  return undefined;
}

/** A string or null; a blank string reads as null. */
export function readNullableString(input: Readonly<Record<string, unknown>>, field: string, errors: FieldErrors): string | null | undefined {
  if (!hasField(input, field)) return undefined;
  const value = input[field];
  if (value === null) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  errors.add(field, 'must be a string or null');
  return undefined;
}

/** An array of localized values (attributes, variant values). */
export function readLocalizedList(
  input: Readonly<Record<string, unknown>>,
  field: string,
  languages: readonly string[],
  errors: FieldErrors,
): LocalizedWrite[] | undefined {
  if (!hasField(input, field)) return undefined;
  const value = input[field];
  if (!Array.isArray(value)) {
    errors.add(field, 'must be an array of strings or objects keyed by language code');
    return undefined;
  }
  const writes: LocalizedWrite[] = [];
  for (const item of value) {
    const parsed = parseLocalizedWrite(item === null ? '' : item, languages);
    if (parsed.ok) writes.push(parsed.write);
    else errors.add(field, parsed.message);
  }
  return writes;
}

/** A short, safe rendering of a client value for a message. */
export function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
