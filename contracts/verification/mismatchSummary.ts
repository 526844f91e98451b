/**
 * A failed interaction told in a few lines a team can act on: each of Pact's mismatches once, with its path
 * generalised over array items (`$[*].stock: missing in 30 of 30 items` where Pact printed the same line for
 * each item), what the pact expects and what the provider answered, in short. Pact's full report stays
 * attached to the test; this is what the console and the error message show.
 */

/** One mismatch as Pact's Verifier reports it in its JSON (`errors[].mismatch.mismatches[]`). */
export interface VerifierMismatch {
  readonly type: string;
  readonly path?: string;
  readonly key?: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly mismatch?: string;
}

/** The mismatches in the Verifier's JSON answer; none when it is not that JSON (a crash, a refused request). */
export function verifierMismatches(json: string): VerifierMismatch[] {
  let parsed: { errors?: { mismatch?: { mismatches?: VerifierMismatch[]; message?: string; type?: string } }[] };
  try {
    parsed = JSON.parse(json) as typeof parsed;
  } catch {
    return [];
  }
  return (parsed.errors ?? []).flatMap(
    ({ mismatch }) => mismatch?.mismatches ?? (mismatch?.message ? [{ type: mismatch.type ?? 'error', mismatch: mismatch.message }] : []),
  );
}

type Step = string | number;

/** `$[3].variants[0]['a b']` as steps: [3, 'variants', 0, 'a b']. */
export function pathSteps(path: string): Step[] {
  const steps: Step[] = [];
  const token = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\[\*\]/g;
  for (const match of path.replace(/^\$/, '').matchAll(token)) steps.push(match[2] !== undefined ? Number(match[2]) : (match[1] ?? match[3] ?? '*'));
  return steps;
}

/** Every array index as `[*]`: one path for the same member of every item. */
export function generalisePath(path: string): string {
  return path.replace(/\[\d+\]/g, '[*]');
}

/** How many items the outermost array on `path` holds in `body`; undefined when the path holds no array index. */
function itemsAt(body: unknown, path: string): number | undefined {
  let value = body;
  for (const step of pathSteps(path)) {
    if (typeof step === 'number') return Array.isArray(value) ? value.length : undefined;
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return undefined;
}

const MISSING_KEYS = /^Actual map is missing the following keys: (.+)$/;
const short = (value: unknown, max = 100): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/**
 * One line per distinct mismatch: body mismatches grouped by their generalised path and wording (a missing
 * member is named by its own path), counted against the items of the array the provider answered.
 */
export function summariseMismatches(mismatches: readonly VerifierMismatch[], answerBody: unknown): string[] {
  const groups = new Map<string, { line: string; count: number; items: number | undefined }>();
  const add = (key: string, line: string, items?: number) => {
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { line, count: 1, items });
  };
  for (const m of mismatches) {
    if (m.type === 'StatusMismatch') add('status', `status: the pact expects ${short(m.expected)}, the provider answered ${short(m.actual)}`);
    else if (m.type === 'HeaderMismatch')
      add(`header ${m.key}`, `header ${m.key}: ${m.mismatch ?? `the pact expects ${short(m.expected)}, got ${short(m.actual)}`}`);
    else if (m.type === 'MetadataMismatch')
      add(`metadata ${m.key}`, `metadata ${m.key}: ${m.mismatch ?? `the pact expects ${short(m.expected)}, got ${short(m.actual)}`}`);
    else if (m.type === 'BodyMismatch' && m.path) {
      const path = generalisePath(m.path);
      const items = itemsAt(answerBody, m.path);
      const missing = MISSING_KEYS.exec(m.mismatch ?? '');
      if (missing) {
        for (const key of missing[1]!.split(',').map((k) => k.trim())) add(`missing ${path}.${key}`, `${path}.${key}: missing`, items);
      } else {
        // The same wording for every item: values quoted in it differ from item to item.
        const wording = (m.mismatch ?? '').replace(/'[^']*'|"[^"]*"|\d+/g, '…');
        add(`${path} ${wording}`, `${path}: ${short(m.mismatch ?? `the pact expects ${short(m.expected)}, got ${short(m.actual)}`, 160)}`, items);
      }
    } else add(`${m.type} ${m.mismatch}`, `${m.type === 'error' ? 'error' : m.type}: ${short(m.mismatch ?? m.expected, 160)}`);
  }
  return [...groups.values()].map(({ line, count, items }) =>
    items === undefined ? (count > 1 ? `${line} (${count} times)` : line) : `${line} in ${count} of ${items} item${items === 1 ? '' : 's'}`,
  );
}

/** The answer's body as JSON when it is JSON, else its text; `undefined` when empty. */
export function parsedBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A short excerpt of what the provider answered: the first item of a list, a long value cut. */
export function answerExcerpt(body: unknown, max = 400): string {
  if (body === undefined) return '(no body)';
  const first = Array.isArray(body)
    ? body[0]
    : body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data)
      ? (body as { data: unknown[] }).data[0]
      : body;
  const shown = JSON.stringify(first) ?? String(first);
  const prefix = Array.isArray(body) ? `${body.length} item(s); the first: ` : first !== body ? 'first of data: ' : '';
  return `${prefix}${shown.length > max ? `${shown.slice(0, max - 1)}…` : shown}`;
}
