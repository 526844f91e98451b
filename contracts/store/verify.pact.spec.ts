/**
 * Verifies the store pacts against the store twin with Pact's own Verifier:
 * one state-handler table seeds the twin through its control API (a fresh store per
 * state), and a request filter points each request at that store and injects its
 * token (never written anywhere).
 */
import { test } from '@playwright/test';
import { Verifier } from '@pact-foundation/pact';
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { StoreTwinControl } from '../../src/testing/StoreTwinControl.ts';
import { STORE_PACT } from './storePact.ts';

test('the store twin honours every store pact', async () => {
  const config = harnessConfig().store;
  test.skip(config.mode !== 'twin', 'this verification seeds provider states through the twin control API');
  if (config.mode !== 'twin') return;
  const control = new StoreTwinControl(config.twinUrl);
  let store = { storeId: 0, token: '' };
  await new Verifier({
    provider: STORE_PACT.provider,
    providerBaseUrl: config.twinUrl,
    pactUrls: [`${process.cwd()}/${STORE_PACT.dir}/${STORE_PACT.consumer}-${STORE_PACT.provider}.json`],
    logLevel: 'warn',
    stateHandlers: {
      'store {storeId} exists': async () => {
        const created = await control.createStore({ clock: 'virtual' });
        store = { storeId: created.storeId, token: created.token };
        return { storeId: created.storeId };
      },
      'store {storeId} is suspended': async () => {
        const created = await control.createStore({ clock: 'virtual' });
        await control.suspend(created.storeId);
        store = { storeId: created.storeId, token: created.token };
        return { storeId: created.storeId };
      },
      'store {storeId} has {count} products': async (params) => {
        const { count } = (params ?? {}) as { count?: number };
        const created = await control.createStore({ products: count, clock: 'virtual' });
        store = { storeId: created.storeId, token: created.token };
        return { storeId: created.storeId };
      },
    },
    requestFilter: (req: { url: string; headers: Record<string, string | string[] | undefined> }, _res: unknown, next: () => void) => {
      // Pacts name the documented example store; the twin's state made a store of its own.
      req.url = req.url.replace(/^\/v1\/\d+/, `/v1/${store.storeId}`);
      req.headers.authentication = `bearer ${store.token}`;
      next();
    },
  }).verifyProvider();
});
