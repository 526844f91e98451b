import type { ApiContext } from '../apiContext.ts';
import { jsonResponse } from '../responses.ts';
import type { RouteDefinition } from '../router.ts';
import { renderStore } from '../resources/storeInfo.ts';

export const storeRoutes: readonly RouteDefinition<ApiContext>[] = [{ path: 'store', methods: { GET: ({ store }) => jsonResponse(200, renderStore(store)) } }];
