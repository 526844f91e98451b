import { STORE_CONTRACT } from '../../../rules/storeContract.ts';
import { FieldErrors } from '../errors.ts';
import { formatTimestamp } from '../timestamps.ts';
import { hasField } from './inputFields.ts';

/** Where an event kind comes from (docs/webhooks.md lists each kind with its source). */
export type EventSource = 'contract' | 'field notes' | 'real 422' | 'public docs' | 'consumer in the wild';

/**
 * Every event kind a webhook can be registered for (store.webhooks.every-event-kind). The field notes' list says
 * "Events include", so it is not the whole list: a twin stricter than the provider fails a team's correct code.
 * - contract: States and transitions (app/suspended, app/resumed are available for registration).
 * - field notes: Webhooks, "Events include" (and `order/*`, read as every order kind below plus ORDER_KIND).
 * - real 422: fixtures/store/errors.json "422 webhook", the real service's own list of allowed events.
 * - public docs: the provider's public webhook page (tiendanube api-documentation, resources/webhook), which
 *   lists more categories than the 422 (customer, domain, theme, fulfillment, subscription, custom fields).
 * - consumer in the wild: a community automation node for this API registers them (customer/created is also in the
 *   public docs; checkout/created only there).
 */
export const WEBHOOK_EVENT_SOURCES: Readonly<Record<string, EventSource>> = {
  'app/uninstalled': 'field notes',
  // store.webhooks.app-events-registrable: States and transitions makes both available for registration.
  'app/suspended': 'contract',
  'app/resumed': 'contract',
  'cart/created': 'real 422',
  'cart/updated': 'real 422',
  'category/created': 'field notes',
  'category/updated': 'field notes',
  'category/deleted': 'field notes',
  'category/custom_fields_updated': 'public docs',
  'checkout/created': 'consumer in the wild',
  'customer/created': 'public docs',
  'customer/updated': 'public docs',
  'customer/deleted': 'public docs',
  'customer/custom_fields_updated': 'public docs',
  'domain/updated': 'public docs',
  'fulfillment/updated': 'public docs',
  'fulfillment_order/status_updated': 'public docs',
  'fulfillment_order/tracking_event_created': 'public docs',
  'fulfillment_order/tracking_event_updated': 'public docs',
  'fulfillment_order/tracking_event_deleted': 'public docs',
  'order/created': 'real 422',
  'order/updated': 'real 422',
  'order/paid': 'real 422',
  'order/packed': 'public docs',
  'order/unpacked': 'public docs',
  'order/fulfilled': 'real 422',
  'order/cancelled': 'real 422',
  'order/edited': 'public docs',
  'order/pending': 'public docs',
  'order/voided': 'public docs',
  'order/custom_fields_updated': 'public docs',
  'order_custom_field/created': 'public docs',
  'order_custom_field/updated': 'public docs',
  'order_custom_field/deleted': 'public docs',
  'product/created': 'field notes',
  'product/updated': 'field notes',
  'product/deleted': 'field notes',
  'product/custom_fields_updated': 'public docs',
  'product_variant/custom_fields_updated': 'public docs',
  'product_variant_custom_field/created': 'public docs',
  'product_variant_custom_field/updated': 'public docs',
  'product_variant_custom_field/deleted': 'public docs',
  'subscription/updated': 'public docs',
  'theme/updated': 'public docs',
};

/** The kinds a webhook can be registered for, in the order the 422 lists them. */
export const WEBHOOK_EVENTS: readonly string[] = Object.keys(WEBHOOK_EVENT_SOURCES);

/** The field notes' `order/*`: an order kind the lists above do not name yet (the provider keeps adding them) is still an order event. */
const ORDER_KIND = /^order\/[a-z]+(_[a-z]+)*$/;

/** The kinds the twin itself fires (products, categories, the app's lifecycle); the others are registered and never sent. */
export const FIRED_EVENTS = [
  'app/uninstalled',
  ...STORE_CONTRACT.appEvents,
  'category/created',
  'category/updated',
  'category/deleted',
  'product/created',
  'product/updated',
  'product/deleted',
] as const;

export type WebhookEvent = (typeof FIRED_EVENTS)[number];

/** Whether `value` names an event kind the provider offers (store.webhooks.every-event-kind): the list, or an order kind. */
export function isRegistrableEvent(value: unknown): value is string {
  return typeof value === 'string' && (value in WEBHOOK_EVENT_SOURCES || ORDER_KIND.test(value));
}

export interface Webhook {
  readonly id: number;
  event: string;
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

interface WebhookChanges {
  event?: string;
  url?: string;
}

/** store.webhooks.invalid-registration-422: the real 422 names event and/or url. */
function readWebhookChanges(input: Readonly<Record<string, unknown>>, creating: boolean): WebhookChanges {
  const errors = new FieldErrors();
  const changes: WebhookChanges = {};
  if (creating || hasField(input, 'event')) {
    const event = input['event'];
    if (isRegistrableEvent(event)) changes.event = event;
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
