/**
 * The provider states of message interactions: each names an event of the store, and arranging it on the
 * store twin makes the twin send that event's webhook delivery for real. A fresh store registers a webhook
 * for the one event (POST /webhooks, to a receiver on 127.0.0.1 here), the state's write goes through the
 * store API, and the delivery the twin posts is caught at the receiver: its raw body and headers are the
 * message verified against the pact (verifyMessage.ts). Nothing of the delivery is made up here.
 *
 * Relies on the twin's public behaviour only: the webhook routes of the Store API, its loopback-only
 * deliveries (ASSUMPTIONS.md), and the events its resources fire today (product/*, category/*, app/*).
 */
import type { TwinStoreConfig } from '../../src/config/harnessConfig.ts';
import { systemClock } from '../../src/clock/Clock.ts';
import type { StoreClient } from '../../src/clients/store/StoreClient.ts';
import { twinStoreProvider, type ProviderStore } from '../../src/providers/store/storeProvider.ts';
import { startWebhookReceiver } from '../../src/testing/webhookReceiver.ts';
import { MESSAGE_STATES } from './messageVocabulary.ts';

export { MESSAGE_STATES, MESSAGE_VOCABULARY } from './messageVocabulary.ts';

/** One delivery as it reached the receiver: the raw body and the headers, names as the twin wrote them. */
export interface Delivery {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** What arranging a message state gave: the delivery, values for the pact, and how to undo it. */
export interface ArrangedMessage {
  readonly delivery: Delivery;
  readonly values: Record<string, string | number>;
  readonly teardown: () => Promise<void>;
}

type Act = (api: StoreClient, store: ProviderStore) => Promise<Record<string, number>>;

/** For each state: the event its webhook is registered for, and the write that fires it (giving the id it wrote). */
const EVENTS: Record<string, { event: string; act: Act }> = {
  [MESSAGE_STATES.productCreated]: {
    event: 'product/created',
    act: async (api, store) => ({ productId: (await api.createProduct({ name: { [store.mainLanguage]: 'Webhook product' } })).id }),
  },
  [MESSAGE_STATES.productUpdated]: {
    event: 'product/updated',
    act: async (api, store) => {
      const id = await first(api.listProducts({ per_page: 1 }), 'products');
      await api.updateProduct(id, { name: { [store.mainLanguage]: 'Renamed for a webhook' } });
      return { productId: id };
    },
  },
  [MESSAGE_STATES.productDeleted]: {
    event: 'product/deleted',
    act: async (api) => {
      const id = await first(api.listProducts({ per_page: 1 }), 'products');
      await api.deleteProduct(id);
      return { productId: id };
    },
  },
  [MESSAGE_STATES.categoryCreated]: {
    event: 'category/created',
    act: async (api, store) => ({ categoryId: (await api.createCategory({ name: { [store.mainLanguage]: 'Webhook category' } })).id }),
  },
  [MESSAGE_STATES.categoryUpdated]: {
    event: 'category/updated',
    act: async (api, store) => {
      const id = await first(api.listCategories({ per_page: 1 }), 'categories');
      await api.updateCategory(id, { name: { [store.mainLanguage]: 'Renamed for a webhook' } });
      return { categoryId: id };
    },
  },
  [MESSAGE_STATES.categoryDeleted]: {
    event: 'category/deleted',
    act: async (api) => {
      // A leaf, so the one delivery is for the category deleted (a parent takes its subcategories with it).
      const { items } = await api.listCategories({ per_page: 200 });
      const leaf = items.find((c) => c.subcategories.length === 0);
      if (!leaf) throw new Error('the store twin made a store without a leaf category: its seed changed; fix the seed or this state');
      await api.deleteCategory(leaf.id);
      return { categoryId: leaf.id };
    },
  },
  [MESSAGE_STATES.storeSuspended]: {
    event: 'app/suspended',
    act: async (_api, store) => (await store.twin!.control.suspend(Number(store.storeId)), {}),
  },
  [MESSAGE_STATES.storeResumed]: {
    event: 'app/resumed',
    act: async (_api, store) => {
      await store.twin!.control.suspend(Number(store.storeId));
      await store.twin!.control.resume(Number(store.storeId));
      return {};
    },
  },
};

async function first(page: Promise<{ items: readonly { id: number }[] }>, what: string): Promise<number> {
  const [item] = (await page).items;
  if (!item) throw new Error(`the store twin made a store without ${what}: its seed changed; fix the seed or this state`);
  return item.id;
}

/**
 * Arranges a message state on the store twin: the twin's delivery of that event, caught at a receiver. The
 * store is deleted by the teardown.
 */
export async function arrangeMessageState(config: Pick<TwinStoreConfig, 'twinUrl' | 'userAgent'>, state: string): Promise<ArrangedMessage> {
  const fired = EVENTS[state];
  if (!fired) throw new Error(`No way to arrange the message state "${state}" on the store twin: add it to EVENTS in contracts/verification/messageStates.ts.`);
  const store = await twinStoreProvider(config, 'twin').openStore();
  const receiver = await startWebhookReceiver();
  const teardown = async () => {
    await receiver.close();
    await store.close();
  };
  try {
    const api = store.client({ pace: false, clock: systemClock });
    await api.createWebhook({ event: fired.event, url: receiver.url });
    const ids = await fired.act(api, store);
    // The twin's first attempt, made and answered before the flush answers: no waiting on a timer.
    await store.twin!.control.flushDeliveries(Number(store.storeId));
    const [first] = receiver.received;
    if (!first) throw new Error(`the store twin sent no ${fired.event} delivery for the write`);
    return { delivery: { body: first.rawBody, headers: first.rawHeaders }, values: { storeId: Number(store.storeId), ...ids }, teardown };
  } catch (error) {
    await teardown();
    throw new Error(`arranging "${state}" on the store twin: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
