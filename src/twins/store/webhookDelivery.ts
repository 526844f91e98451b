/**
 * One webhook delivery as the store sends it, and the schedule it is retried on: shared by the twin's outbox and by
 * `npx api-contract-harness webhooks send|check`, so a team's handler sees the same bytes from both.
 *
 * Field notes, Webhooks: POST of `{"store_id","event","id"}` with `X-Linkedstore-HMAC-SHA256` (lower-case hex
 * HMAC-SHA256 of the raw body keyed with the app secret); "expects a 2xx within seconds; retries with back-off for
 * up to 48 hours". The exact time limit and schedule are the twin's choice within those words (docs/webhooks.md).
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import { networkErrorOf } from '../../http/networkError.ts';

/** Header carrying the signature of a delivery (store.webhooks.hmac-signature). */
export const SIGNATURE_HEADER = 'X-Linkedstore-HMAC-SHA256';

/** store.webhooks.answer-time-limit: "a 2xx within seconds". The twin's choice: 5 s, the short end, so a handler that passes here passes there. */
export const DELIVERY_TIMEOUT_MS = 5_000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** store.webhooks.retry-window: "retries with back-off for up to 48 hours", counted from the event. */
export const RETRY_WINDOW_MS = 48 * HOUR;

/**
 * store.webhooks.retry-schedule: when each attempt is due, counted from the event. 15 attempts, the gaps never
 * shrinking (back-off), the last at 48 h. The twin's choice: the field notes give the window and "back-off" only
 * (an older public page said "14 times along the next three days in incremental lapses"; the count is kept, the
 * window is the field notes').
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  1 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  6 * HOUR,
  12 * HOUR,
  18 * HOUR,
  24 * HOUR,
  32 * HOUR,
  40 * HOUR,
  RETRY_WINDOW_MS,
];

/** Lower-case hex HMAC-SHA256 of the raw body, keyed with the app secret. */
export function signWebhookBody(body: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(body, 'utf8').digest('hex');
}

/** The body the store sends: `{"store_id","event","id"}` in that order, as the field notes show it. */
export function deliveryBody(storeId: number, event: string, id: number): string {
  return JSON.stringify({ store_id: storeId, event, id });
}

/** The headers of a delivery: JSON, and the signature unless `signature` says otherwise (the check's wrong and missing ones). */
export function deliveryHeaders(body: string, secret: string, signature: string | null = signWebhookBody(body, secret)): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'store-commerce-twin (webhooks)',
    ...(signature === null ? {} : { [SIGNATURE_HEADER]: signature }),
  };
}

/** What a receiver did with one attempt: its status and a little of its answer, or why there was none. */
export type AttemptOutcome =
  | { readonly kind: 'answered'; readonly status: number; readonly headers: Record<string, string>; readonly body: string; readonly durationMs: number }
  | { readonly kind: 'failed'; readonly code: string; readonly error: string; readonly durationMs: number };

/** A receiver's body is kept up to this many characters: enough to read, never a memory risk. */
const KEPT_BODY_CHARS = 2_000;

export interface PostOptions {
  readonly timeoutMs?: number;
  /** Aborts the attempt (the twin closing). */
  readonly signal?: AbortSignal;
}

/**
 * POSTs one delivery and reads the answer, within the time limit (connect, headers and body together). Never throws:
 * a refused connection, a timeout or an answer that is not HTTP comes back as `failed` with undici's code.
 */
export async function postDelivery(url: string | URL, body: string, headers: Record<string, string>, options: PostOptions = {}): Promise<AttemptOutcome> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // A dispatcher of its own, closed after the attempt: no socket outlives it, in the twin or in a team's test process.
  const agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const limit = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, limit]) : limit;
  try {
    const answer = await request(url, { method: 'POST', headers, body, dispatcher: agent, signal });
    let text = '';
    for await (const chunk of answer.body) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length > KEPT_BODY_CHARS) {
        text = `${text.slice(0, KEPT_BODY_CHARS)}…`;
        answer.body.destroy();
        break;
      }
    }
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    return { kind: 'answered', status: answer.statusCode, headers: flat, body: text, durationMs: elapsed() };
  } catch (error) {
    if (limit.aborted && !options.signal?.aborted) {
      return { kind: 'failed', code: 'TIMEOUT', error: `no answer within ${timeoutMs} ms (store.webhooks.answer-time-limit)`, durationMs: elapsed() };
    }
    const { code, message } = networkErrorOf(error);
    return { kind: 'failed', code, error: message, durationMs: elapsed() };
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

/** Whether an answer counts as delivered: a 2xx, the field notes' words. */
export function isDelivered(outcome: AttemptOutcome): boolean {
  return outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300;
}
