/**
 * `npx api-contract-harness webhooks send|check`: a team's own webhook handler, reached as the store reaches it.
 * - `send <event> --to <url> --secret <s> [--store-id N] [--id N]`: one delivery, signed and posted exactly as the
 *   twin posts it (src/twins/store/webhookDelivery.ts), and the handler's answer printed.
 * - `check --to <url> --secret <s>`: a short conformance check of the handler, one verdict line per check.
 * Exit 0 every check passed (or the handler answered 2xx); 1 a check failed; 2 usage.
 */
import { randomInt } from 'node:crypto';
import {
  DELIVERY_TIMEOUT_MS,
  deliveryBody,
  deliveryHeaders,
  isDelivered,
  postDelivery,
  signWebhookBody,
  type AttemptOutcome,
} from '../src/twins/store/webhookDelivery.ts';
import { isRegistrableEvent } from '../src/twins/store/resources/webhooks.ts';

export const WEBHOOKS_USAGE = `Usage: api-contract-harness webhooks <send|check> [options]

  webhooks send <event> --to <url> --secret <app secret> [--store-id <n>] [--id <n>]
      signs {"store_id","event","id"} with X-Linkedstore-HMAC-SHA256 as the store does, POSTs it to your handler
      and prints its answer (exit 0 on a 2xx within ${DELIVERY_TIMEOUT_MS / 1000} s, 1 otherwise)
  webhooks check --to <url> --secret <app secret> [--store-id <n>]
      a conformance check of your handler, one verdict line per check:
        a correctly signed delivery is answered 2xx within ${DELIVERY_TIMEOUT_MS / 1000} s
        the same delivery twice is answered 2xx both times (deliveries are retried: handle them idempotently)
        a wrong signature is not answered 2xx
        a missing signature is not answered 2xx
        a body that is not JSON is not answered 5xx (the store would retry it for 48 h)

Exit: 0 passed; 1 a check failed; 2 usage.`;

class WebhooksUsageError extends Error {}

export interface WebhooksOptions {
  readonly to: string;
  readonly secret: string;
  readonly storeId: number;
  readonly id: number | undefined;
}

/** The options after the subcommand (and its event): each checked, in the caller's words. */
export function readWebhooksOptions(argv: readonly string[]): WebhooksOptions {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!['--to', '--secret', '--store-id', '--id'].includes(arg)) throw new WebhooksUsageError(`unknown option "${arg}".`);
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new WebhooksUsageError(`${arg} needs a value.`);
    values.set(arg, value);
  }
  const to = values.get('--to');
  if (to === undefined) throw new WebhooksUsageError('--to <url> is required: the URL of your webhook handler, e.g. http://127.0.0.1:3000/webhooks.');
  const url = URL.parse(to);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new WebhooksUsageError(`--to ${to}: give an http or https URL.`);
  const secret = values.get('--secret');
  if (!secret) throw new WebhooksUsageError('--secret <app secret> is required: the key your handler checks X-Linkedstore-HMAC-SHA256 with.');
  const number = (name: string): number | undefined => {
    const text = values.get(name);
    if (text === undefined) return undefined;
    if (!/^[1-9]\d{0,15}$/.test(text)) throw new WebhooksUsageError(`${name} ${text}: give a positive whole number.`);
    return Number(text);
  };
  return { to, secret, storeId: number('--store-id') ?? 100001, id: number('--id') };
}

/** `HTTP 200 in 12 ms: ok` or `no answer: ECONNREFUSED …`. */
export function outcomeLine(outcome: AttemptOutcome): string {
  if (outcome.kind === 'failed') return `no answer: ${outcome.code}: ${outcome.error} (${outcome.durationMs} ms)`;
  const body = outcome.body.length > 200 ? `${outcome.body.slice(0, 200)}…` : outcome.body;
  return `HTTP ${outcome.status} in ${outcome.durationMs} ms${body ? `: ${body.replace(/\s+/g, ' ')}` : ''}`;
}

async function send(event: string, options: WebhooksOptions, log: (line: string) => void): Promise<number> {
  const body = deliveryBody(options.storeId, event, options.id ?? randomInt(1, 2 ** 31));
  const headers = deliveryHeaders(body, options.secret);
  log(`POST ${options.to}`);
  for (const [name, value] of Object.entries(headers)) log(`${name}: ${value}`);
  for (const line of ['', body, '']) log(line);
  const outcome = await postDelivery(options.to, body, headers);
  log(outcomeLine(outcome));
  return isDelivered(outcome) ? 0 : 1;
}

/** One check of a handler: what it sends, and what makes its answer pass. */
interface HandlerCheck {
  readonly name: string;
  run(options: WebhooksOptions): Promise<{ ok: boolean; detail: string }>;
}

const deliveredIn = (outcome: AttemptOutcome): { ok: boolean; detail: string } => ({ ok: isDelivered(outcome), detail: outcomeLine(outcome) });
const notAccepted = (outcome: AttemptOutcome): { ok: boolean; detail: string } => ({
  ok: outcome.kind === 'answered' && (outcome.status < 200 || outcome.status >= 300),
  detail: outcomeLine(outcome),
});

/** Each check sends a delivery of its own id, so a handler's idempotency store does not mix them up. */
export const HANDLER_CHECKS: readonly HandlerCheck[] = [
  {
    name: `a correctly signed delivery is answered 2xx within ${DELIVERY_TIMEOUT_MS / 1000} s`,
    run: async ({ to, secret, storeId }) => {
      const body = deliveryBody(storeId, 'product/created', randomInt(1, 2 ** 31));
      return deliveredIn(await postDelivery(to, body, deliveryHeaders(body, secret)));
    },
  },
  {
    name: 'the same delivery twice is answered 2xx both times',
    run: async ({ to, secret, storeId }) => {
      const body = deliveryBody(storeId, 'product/updated', randomInt(1, 2 ** 31));
      const first = await postDelivery(to, body, deliveryHeaders(body, secret));
      const second = await postDelivery(to, body, deliveryHeaders(body, secret));
      return { ok: isDelivered(first) && isDelivered(second), detail: `first ${outcomeLine(first)}; again ${outcomeLine(second)}` };
    },
  },
  {
    name: 'a wrong signature is not answered 2xx',
    run: async ({ to, secret, storeId }) => {
      const body = deliveryBody(storeId, 'product/created', randomInt(1, 2 ** 31));
      return notAccepted(await postDelivery(to, body, deliveryHeaders(body, secret, signWebhookBody(body, `${secret}-wrong`))));
    },
  },
  {
    name: 'a missing signature is not answered 2xx',
    run: async ({ to, secret, storeId }) => {
      const body = deliveryBody(storeId, 'product/created', randomInt(1, 2 ** 31));
      return notAccepted(await postDelivery(to, body, deliveryHeaders(body, secret, null)));
    },
  },
  {
    name: 'a body that is not JSON is not answered 5xx',
    run: async ({ to, secret }) => {
      // Signed correctly, so only the body is wrong: a 5xx would have the store retry it for 48 hours.
      const body = '{"store_id": not json';
      const outcome = await postDelivery(to, body, deliveryHeaders(body, secret));
      return { ok: outcome.kind === 'answered' && outcome.status < 500, detail: outcomeLine(outcome) };
    },
  },
];

async function check(options: WebhooksOptions, log: (line: string) => void): Promise<number> {
  log(`webhooks check: ${options.to} (signed with the secret given, as the store signs: X-Linkedstore-HMAC-SHA256)`);
  let failed = 0;
  for (const handlerCheck of HANDLER_CHECKS) {
    const { ok, detail } = await handlerCheck.run(options);
    if (!ok) failed += 1;
    log(`${ok ? 'ok  ' : 'FAIL'} ${handlerCheck.name}: ${detail}`);
  }
  log(`webhooks check: ${HANDLER_CHECKS.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/** The command: 0, 1 or 2 as the other commands. */
export async function webhooksCommand(argv: readonly string[], log: (line: string) => void = (line) => console.log(line)): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === undefined || sub === '--help' || sub === '-h' || rest.includes('--help')) {
      log(WEBHOOKS_USAGE);
      return sub === undefined ? 2 : 0;
    }
    if (sub === 'send') {
      const [event, ...options] = rest;
      if (event === undefined || event.startsWith('--'))
        throw new WebhooksUsageError('send needs the event first, e.g. webhooks send product/created --to … --secret ….');
      if (!isRegistrableEvent(event)) log(`(note: ${event} is not an event kind the store is known to offer; sent anyway)`);
      return await send(event, readWebhooksOptions(options), log);
    }
    if (sub === 'check') return await check(readWebhooksOptions(rest), log);
    throw new WebhooksUsageError(`unknown webhooks command "${sub}": send or check.`);
  } catch (error) {
    if (!(error instanceof WebhooksUsageError)) throw error;
    console.error(`api-contract-harness webhooks: ${error.message}\n\n${WEBHOOKS_USAGE}`);
    return 2;
  }
}
