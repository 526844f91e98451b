/**
 * The request a failed test's error is about, from the exchanges attached to
 * it (httpAttachments.ts): not simply the last one, which is often the
 * clean-up the fixtures send after a failure (each record the test created is
 * deleted, newest first, even when it failed). In order:
 * 1. the last exchange (before the clean-up) whose request the error names
 *    (`GET /v1/1/products?page=2 answered 404`, or its full URL);
 * 2. else the last exchange before the clean-up.
 * The clean-up is read off the exchanges: an exchange marked `cleanUp`, or the
 * trailing DELETEs of records this test created (a POST answered with their
 * id), each the last DELETE of its path (an earlier DELETE of the same path is
 * the test's own).
 */
import { stripVTControlCharacters } from 'node:util';
import { exchangeTitle, pathOf } from './httpAttachments.ts';

/** What a test's attachments hold: exchanges.json, and the readable ones named `HTTP n: GET /path → 200`. */
export interface AttachmentLike {
  readonly name: string;
  readonly body?: Buffer | string;
}

/** One exchange as exchanges.json records it (src/http/Exchange.ts), as far as this needs. */
interface Recorded {
  readonly request: { readonly method: string; readonly url: string };
  readonly response?: { readonly status: number; readonly body?: string };
  readonly error?: { readonly code: string; readonly message: string };
  /** Set by a fixture on what it sent after the test's body ended. */
  readonly cleanUp?: boolean;
}

const bare = (url: string) => pathOf(url).split('?')[0]!;

/** The exchanges, from the last exchanges.json; else rebuilt from the readable attachments' names (no bodies). */
function exchangesOf(attachments: readonly AttachmentLike[]): Recorded[] {
  const record = [...attachments].reverse().find((a) => a.name === 'exchanges.json' && a.body !== undefined);
  if (record) {
    try {
      const parsed = JSON.parse(String(record.body)) as Recorded[];
      if (Array.isArray(parsed)) return parsed.filter((e) => e?.request?.method && e.request.url);
    } catch {
      // Not the JSON record: the readable names below.
    }
  }
  return attachments.flatMap((a) => {
    const match = /^HTTP \d+: ([A-Z]+) (\S+) → (\S+)$/.exec(a.name);
    if (!match) return [];
    const status = Number(match[3]);
    return [
      {
        request: { method: match[1]!, url: match[2]! },
        ...(Number.isInteger(status) ? { response: { status } } : { error: { code: match[3]!, message: '' } }),
      },
    ];
  });
}

/** The id a create answered (`{"id": 5}` on the store, `{"data": {"id": "5"}}` on media). */
function createdId(exchange: Recorded): string | undefined {
  if (exchange.request.method !== 'POST' || !exchange.response || exchange.response.status >= 300 || !exchange.response.body) return undefined;
  try {
    const body = JSON.parse(exchange.response.body) as { id?: unknown; data?: { id?: unknown } };
    const id = body.id ?? body.data?.id;
    return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

/** How many exchanges at the end are the clean-up (see the file's comment). */
function cleanUpLength(exchanges: readonly Recorded[]): number {
  const marked = exchanges.findIndex((e) => e.cleanUp === true);
  if (marked >= 0) return exchanges.length - marked;
  const created = new Set(exchanges.flatMap((e) => (createdId(e) ? [`${bare(e.request.url)}/${createdId(e)}`] : [])));
  let length = 0;
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const exchange = exchanges[i]!;
    const path = bare(exchange.request.url);
    if (exchange.request.method !== 'DELETE' || !created.has(path)) break;
    // The same path deleted again: the earlier one is the test's own DELETE, the later the clean-up.
    const deletedBefore = exchanges.slice(0, i).some((e) => e.request.method === 'DELETE' && bare(e.request.url) === path);
    length += 1;
    if (deletedBefore) break;
  }
  return length;
}

/**
 * Whether `message` names the request of `exchange`: its method and path with the query, or its full URL; with
 * `loosely`, its method and path without the query.
 */
function named(message: string, exchange: Recorded, loosely: boolean): boolean {
  const { method, url } = exchange.request;
  const text = stripVTControlCharacters(message);
  const forms = loosely ? [bare(url)] : [url, pathOf(url)];
  return forms.some((where) => {
    const at = text.indexOf(`${method} ${where}`);
    // The whole path: not the start of a longer one (`/products` in `/products?page=2`).
    return at >= 0 && !/[?/\w]/.test(text.charAt(at + method.length + 1 + where.length));
  });
}

/** `GET /v1/1/products?page=2 → 404`: the request the failure is about (see the file's comment), or undefined when none was attached. */
export function failingRequest(attachments: readonly AttachmentLike[], message = ''): string | undefined {
  const exchanges = exchangesOf(attachments);
  if (exchanges.length === 0) return undefined;
  const before = exchanges.slice(0, exchanges.length - cleanUpLength(exchanges));
  const candidates = before.length > 0 ? before : exchanges;
  const latest = [...candidates].reverse();
  const found = latest.find((e) => named(message, e, false)) ?? latest.find((e) => named(message, e, true)) ?? candidates.at(-1)!;
  // exchangeTitle reads the method, the URL and the status or error code only.
  return exchangeTitle(found as Parameters<typeof exchangeTitle>[0]);
}
