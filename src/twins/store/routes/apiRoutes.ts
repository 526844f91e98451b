import type { ApiContext } from '../apiContext.ts';
import { Router } from '../router.ts';
import { categoryRoutes } from './categoryRoutes.ts';
import { productRoutes } from './productRoutes.ts';
import { storeRoutes } from './storeRoutes.ts';
import { webhookRoutes } from './webhookRoutes.ts';

/** Every Store API route under /v1/{store_id}. */
export const apiRoutes = new Router<ApiContext>([...storeRoutes, ...productRoutes, ...categoryRoutes, ...webhookRoutes]);
