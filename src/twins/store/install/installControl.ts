/**
 * The install flow's control API (twin only): register apps as a partner
 * would in the partner panel, approve an install without a browser, and
 * uninstall.
 */
import { ControlError, type ControlContext } from '../controlRequest.ts';
import { jsonResponse } from '../responses.ts';
import type { RouteDefinition } from '../router.ts';
import type { StoreState } from '../storeState.ts';
import type { TwinState } from '../twinState.ts';
import { readAppInput, type TwinApp } from './apps.ts';
import { approveInstall } from './installRoute.ts';

function appOr404(twin: TwinState, rawId: string | undefined): TwinApp {
  const app = twin.apps.find(rawId);
  if (!app) throw new ControlError(404, `twin: app ${rawId ?? ''} is not registered; GET /__twin/apps lists the apps, POST /__twin/apps registers one`);
  return app;
}

function storeNamed(twin: TwinState, body: Readonly<Record<string, unknown>>): StoreState {
  const raw = body['storeId'];
  const store = typeof raw === 'number' || typeof raw === 'string' ? twin.find(String(raw)) : undefined;
  if (!store) throw new ControlError(400, 'twin: storeId must name a store of this twin, e.g. {"storeId":100001}; GET /__twin/stores lists them');
  return store;
}

function appInput(body: Readonly<Record<string, unknown>>, creating: boolean) {
  const input = readAppInput(body, creating);
  if (typeof input === 'string') throw new ControlError(400, `twin: ${input}`);
  return input;
}

/** What a partner sees of an app, the client secret included: a twin fixture, not a real credential. */
export function describeApp(origin: string, app: TwinApp): Record<string, unknown> {
  return {
    appId: app.id,
    name: app.name,
    clientSecret: app.secret,
    redirectUrl: app.redirectUrl,
    scopes: [...app.scopes],
    authorizeUrl: `${origin}/apps/${app.id}/authorize`,
    tokenUrl: `${origin}/apps/authorize/token`,
  };
}

export const installControlRoutes: readonly RouteDefinition<ControlContext>[] = [
  {
    path: 'apps',
    methods: {
      GET: ({ twin, origin }) =>
        jsonResponse(
          200,
          twin.apps.list().map((app) => describeApp(origin, app)),
        ),
      POST: ({ twin, body, origin }) => jsonResponse(201, describeApp(origin, twin.apps.register(appInput(body, true)))),
    },
  },
  {
    path: 'apps/:appId',
    methods: {
      GET: ({ twin, origin }, params) => jsonResponse(200, describeApp(origin, appOr404(twin, params['appId']))),
      PUT: ({ twin, body, origin }, params) => {
        const app = appOr404(twin, params['appId']);
        Object.assign(app, appInput(body, false));
        return jsonResponse(200, describeApp(origin, app));
      },
    },
  },
  {
    // The store owner's approval without a browser: {storeId, state?} → the code and where the browser would go.
    path: 'apps/:appId/approve',
    methods: {
      POST: ({ twin, body }, params) => {
        const app = appOr404(twin, params['appId']);
        const store = storeNamed(twin, body);
        const state = typeof body['state'] === 'string' ? body['state'] : undefined;
        return jsonResponse(201, { storeId: store.id, ...approveInstall(twin, app, store, state) });
      },
    },
  },
  {
    // store.oauth.uninstall-revokes: {storeId} → the app's token stops working, app/uninstalled goes out.
    path: 'apps/:appId/uninstall',
    methods: {
      POST: ({ twin, body }, params) => {
        const app = appOr404(twin, params['appId']);
        const store = storeNamed(twin, body);
        if (!twin.installs.uninstall(app, store)) throw new ControlError(404, `twin: app ${app.id} is not installed on store ${store.id}`);
        return jsonResponse(200, { uninstalled: true, storeId: store.id, appId: app.id });
      },
    },
  },
];
