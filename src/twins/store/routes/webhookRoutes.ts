import { collectionResponse, type ApiContext } from '../apiContext.ts';
import { MISSING, StoreApiError } from '../errors.ts';
import { parseNumericId } from '../../serving/requestTarget.ts';
import { jsonResponse } from '../responses.ts';
import type { RouteDefinition } from '../router.ts';
import { createWebhook, renderWebhook, updateWebhook, type Webhook } from '../resources/webhooks.ts';

function webhookOr404(context: ApiContext, rawId: string | undefined): Webhook {
  const id = parseNumericId(rawId);
  const webhook = id === undefined ? undefined : context.store.webhooks.get(id);
  if (!webhook) throw StoreApiError.standard(404, MISSING.webhook);
  return webhook;
}

/** store.webhooks.registration, store.webhooks.invalid-registration-422 */
export const webhookRoutes: readonly RouteDefinition<ApiContext>[] = [
  {
    path: 'webhooks',
    methods: {
      GET: (context) => collectionResponse(context, context.store.webhooks.values(), { accept: () => true, render: renderWebhook, emptyIs404: false }),
      POST: (context) => jsonResponse(201, renderWebhook(createWebhook(context.store, context.body ?? {}))),
    },
  },
  {
    path: 'webhooks/:id',
    methods: {
      GET: (context, params) => jsonResponse(200, renderWebhook(webhookOr404(context, params['id']))),
      PUT: (context, params) => {
        const webhook = webhookOr404(context, params['id']);
        updateWebhook(context.store, webhook, context.body ?? {});
        return jsonResponse(200, renderWebhook(webhook));
      },
      DELETE: (context, params) => {
        const webhook = webhookOr404(context, params['id']);
        context.store.webhooks.delete(webhook.id);
        return jsonResponse(200, {});
      },
    },
  },
];
