/**
 * Differences between two JSON values, for drift: members and array elements
 * added, removed, of another type or value, with JSON paths and pointers to
 * name them; likely renames; and sequences paired in order by key.
 */
import { isDeepStrictEqual } from 'node:util';

/** How much of a value a message shows. */
const VALUE_PREVIEW = 200;

export function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > VALUE_PREVIEW ? `${text.slice(0, VALUE_PREVIEW - 1)}…` : text;
}

export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function jsonPath(segments: readonly (string | number)[]): string {
  return `$${segments.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('')}`;
}

export function pointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export interface FieldDiff {
  op: 'field-added' | 'field-removed' | 'field-type' | 'field-value';
  segments: (string | number)[];
  stored?: unknown;
  fresh?: unknown;
}

/** Differences between two JSON values: members and array elements (by position) added, removed, of another type, of another value. */
export function diffJson(stored: unknown, fresh: unknown, segments: (string | number)[], out: FieldDiff[]): void {
  if (stored === undefined && fresh === undefined) return;
  if (stored === undefined) return void out.push({ op: 'field-added', segments, fresh });
  if (fresh === undefined) return void out.push({ op: 'field-removed', segments, stored });
  const [ts, tf] = [typeOf(stored), typeOf(fresh)];
  if (ts !== tf) return void out.push({ op: 'field-type', segments, stored, fresh });
  if (Array.isArray(stored) && Array.isArray(fresh)) {
    for (let n = 0; n < Math.max(stored.length, fresh.length); n++) diffJson(stored[n], fresh[n], [...segments, n], out);
    return;
  }
  if (ts === 'object') {
    const s = stored as Record<string, unknown>;
    const f = fresh as Record<string, unknown>;
    for (const k of new Set([...Object.keys(s), ...Object.keys(f)])) {
      diffJson(Object.hasOwn(s, k) ? s[k] : undefined, Object.hasOwn(f, k) ? f[k] : undefined, [...segments, k], out);
    }
    return;
  }
  if (stored !== fresh) out.push({ op: 'field-value', segments, stored, fresh });
}

export function fieldMessage(d: FieldDiff, path: string): string {
  switch (d.op) {
    case 'field-added':
      return `field ${path} added (${preview(d.fresh)})`;
    case 'field-removed':
      return `field ${path} removed (was ${preview(d.stored)})`;
    case 'field-type':
      return `field ${path} changed type: ${typeOf(d.stored)} → ${typeOf(d.fresh)} (${preview(d.stored)} → ${preview(d.fresh)})`;
    default:
      return `field ${path} changed value: ${preview(d.stored)} → ${preview(d.fresh)}`;
  }
}

/** Pairs two sequences in order by key (longest common subsequence); unpaired ones are added or removed. */
export function pairInOrder(stored: readonly string[], fresh: readonly string[]): { pairs: [number, number][]; removed: number[]; added: number[] } {
  const rows = stored.length;
  const cols = fresh.length;
  const lcs: number[][] = Array.from({ length: rows + 1 }, () => new Array<number>(cols + 1).fill(0));
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      lcs[i]![j] = stored[i] === fresh[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  const removed: number[] = [];
  const added: number[] = [];
  let [i, j] = [0, 0];
  while (i < rows && j < cols) {
    if (stored[i] === fresh[j]) pairs.push([i++, j++]);
    else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) removed.push(i++);
    else added.push(j++);
  }
  while (i < rows) removed.push(i++);
  while (j < cols) added.push(j++);
  return { pairs, removed, added };
}

/** A member removed and a sibling added with the same value: most likely a rename, worth saying on both. */
export function renamedFields(diffs: readonly FieldDiff[]): Map<FieldDiff, string> {
  const notes = new Map<FieldDiff, string>();
  const parent = (d: FieldDiff) => JSON.stringify(d.segments.slice(0, -1));
  for (const removed of diffs.filter((d) => d.op === 'field-removed' && typeof d.segments.at(-1) === 'string')) {
    const added = diffs.find(
      (d) =>
        d.op === 'field-added' &&
        !notes.has(d) &&
        typeof d.segments.at(-1) === 'string' &&
        parent(d) === parent(removed) &&
        isDeepStrictEqual(d.fresh, removed.stored),
    );
    if (!added) continue;
    notes.set(removed, `renamed to ${jsonPath(added.segments)}? (same value)`);
    notes.set(added, `renamed from ${jsonPath(removed.segments)}? (same value)`);
  }
  return notes;
}
