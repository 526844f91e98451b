import { JsonText } from './jsonText.ts';

/**
 * Each record's rendered JSON, kept until the twin's data next changes. A
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

  invalidate(): void {
    this.#variants.clear();
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
}

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
