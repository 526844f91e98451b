import { JsonText } from './jsonText.ts';

/**
 * Each record's rendered JSON (and values derived from the data, such as a
 * list's visible, sorted records), kept until the twin's data next changes. A
 * list page then joins stored bytes instead of rendering and serialising
 * every record on every answer, which was over half of a list's CPU under
 * `npm run bench -- throughput`. Any change may alter how any record renders
 * (a product shows its categories, a media count counts other records), so
 * every write empties the whole cache: the twins run each request through
 * `dropRenderedAroundWrites`. A miss only costs a render; a
 * stale entry would be a wrong answer.
 */
export class RenderCache<Record extends object> {
  /** Per variant (what else a render depends on, e.g. who is asking), then per record. */
  #variants = new Map<string, WeakMap<Record, JsonText>>();
  /** Values computed from the data (a viewer's visible, sorted list of a type), by the key naming everything else they depend on. */
  #derived = new Map<string, unknown>();

  invalidate(): void {
    this.#variants.clear();
    this.#derived.clear();
  }

  /** The record's JSON as `render` gives it for `variant`, rendered on the first call after a change. */
  json(record: Record, variant: string, render: () => unknown): JsonText {
    let texts = this.#variants.get(variant);
    if (!texts) {
      texts = new WeakMap();
      this.#variants.set(variant, texts);
    }
    let text = texts.get(record);
    if (!text) {
      text = JsonText.of(render());
      texts.set(record, text);
    }
    return text;
  }

  /**
   * What `compute` gives, computed on the first call after a change and then
   * kept, like a render, until the data next changes. `key` must name
   * everything else the value depends on (who asks, the request's filters),
   * and one key always names one kind of value: the caller's namespace.
   */
  derived<T>(key: string, compute: () => T): T {
    if (this.#derived.has(key)) return this.#derived.get(key) as T;
    const value = compute();
    // Keys come from requests (filters, sorts): bounded, so a run of distinct reads between writes cannot grow it without end.
    if (this.#derived.size >= MAX_DERIVED) this.#derived.clear();
    this.#derived.set(key, value);
    return value;
  }
}

const MAX_DERIVED = 1_000;

const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Runs a request's `work`, calling `invalidate` before and after it unless the
 * method only reads: the one rule for when rendered records are dropped.
 */
export async function dropRenderedAroundWrites<T>(method: string | undefined, invalidate: () => void, work: () => T | Promise<T>): Promise<T> {
  if (READS.has(method ?? 'GET')) return work();
  invalidate();
  try {
    return await work();
  } finally {
    invalidate();
  }
}
