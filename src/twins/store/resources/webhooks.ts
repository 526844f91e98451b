import { STORE_CONTRACT } from '../../../rules/storeContract.ts';
import { FieldErrors } from '../errors.ts';
import { formatTimestamp } from '../timestamps.ts';
import { hasField } from './inputFields.ts';

/**
 * Events a webhook can be registered for: the real service's list from its 422
 * (fixtures/store/errors.json "422 webhook") plus the contract's app events
 * (store.webhooks.registration).
 */
export const WEBHOOK_EVENTS = [
  'app/uninstalled',
  ...STORE_CONTRACT.appEvents,
  'cart/created',
  'cart/updated',
  'category/created',
  'category/updated',
  'category/deleted',
  'order/created',
  'order/updated',
  'order/paid',
  'order/fulfilled',
  'order/cancelled',
  'product/created',
  'product/updated',
  'product/deleted',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Webhook {
  readonly id: number;
  event: WebhookEvent;
  url: string;
  readonly createdAt: number;
  updatedAt: number;
}

/** What a webhook's writes need of its store: StoreState, which holds the webhooks (so this file does not import it). */
export interface WebhookStore {
  readonly webhooks: Map<number, Webhook>;
  nextId(): number;
  timestamp(): number;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Hosts the twin delivers to, and accepts plain http for (see ASSUMPTIONS.md). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/** https, or (twin allowance) http on a loopback host so a test receiver can run locally. */
export function isAcceptedWebhookUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

interface WebhookChanges {
  event?: WebhookEvent;
  url?: string;
}

/** store.webhooks.invalid-registration-422: the real 422 names event and/or url. */
function readWebhookChanges(input: Readonly<Record<string, unknown>>, creating: boolean): WebhookChanges {
  const errors = new FieldErrors();
  const changes: WebhookChanges = {};
  if (creating || hasField(input, 'event')) {
    const event = input['event'];
    if (isWebhookEvent(event)) changes.event = event;
    else errors.add('event', `Invalid event specified. Events allowed: ${WEBHOOK_EVENTS.join(', ')}`);
  }
  if (creating || hasField(input, 'url')) {
    const url = input['url'];
    if (typeof url === 'string' && isAcceptedWebhookUrl(url)) changes.url = url;
    else errors.add('url', 'invalid url specified');
  }
  errors.throwIfAny();
  return changes;
}

/** store.webhooks.registration: POST /webhooks answers 201 {id,event,url,created_at,updated_at}. */
export function createWebhook(store: WebhookStore, input: Readonly<Record<string, unknown>>): Webhook {
  const changes = readWebhookChanges(input, true);
  if (changes.event === undefined || changes.url === undefined) throw new Error('readWebhookChanges let a webhook without event or url through');
  const now = store.timestamp();
  const webhook: Webhook = { id: store.nextId(), event: changes.event, url: changes.url, createdAt: now, updatedAt: now };
  store.webhooks.set(webhook.id, webhook);
  return webhook;
}

export function updateWebhook(store: WebhookStore, webhook: Webhook, input: Readonly<Record<string, unknown>>): void {
  const changes = readWebhookChanges(input, false);
  const changed = (changes.event !== undefined && changes.event !== webhook.event) || (changes.url !== undefined && changes.url !== webhook.url);
  if (!changed) return;
  if (changes.event !== undefined) webhook.event = changes.event;
  if (changes.url !== undefined) webhook.url = changes.url;
  webhook.updatedAt = store.timestamp();
}

export function renderWebhook(webhook: Webhook): Record<string, unknown> {
  return {
    id: webhook.id,
    event: webhook.event,
    url: webhook.url,
    created_at: formatTimestamp(webhook.createdAt),
    updated_at: formatTimestamp(webhook.updatedAt),
  };
}
