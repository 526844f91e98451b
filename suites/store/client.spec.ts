import { expect, test, verifies } from '../fixtures/storeFixtures.ts';
import { says } from '../../src/testing/ruleTest.ts';
import { StoreApiError } from '../../src/clients/store/errors.ts';

// Errors: "500, 502, 503, 504 — service trouble; the client retries later".

for (const status of [500, 502, 503, 504]) {
  test(
    ...verifies('store.errors.server-errors-retried', `${status} twice, then served`, async ({ store, rule }) => {
      test.skip(!store.twin, 'needs the twin to inject faults');
      const twin = store.twin!;
      await twin.control.injectFaults(twin.info.storeId, { status, count: 2 });
      const started = twin.clock.now();
      const page = await twin.client.listProducts({ per_page: 2 });
      expect(page.items, says(rule, `the client retried past two ${status}s`)).toHaveLength(2);
      expect(twin.clock.now() - started, says(rule, 'the client backed off before retrying')).toBeGreaterThan(0);
    }),
  );
}

test(
  ...verifies('store.errors.server-errors-retried', 'back-off is bounded: a lasting 503 ends in an error', async ({ store, rule }) => {
    test.skip(!store.twin, 'needs the twin to inject faults');
    const twin = store.twin!;
    await twin.control.injectFaults(twin.info.storeId, { status: 503, count: 100 });
    const started = twin.clock.now();
    const error = await twin
      .clientWith({ retry: { maxRetries: 3 } })
      .listProducts()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error, says(rule, 'the client gives up with an error that says what happened')).toBeInstanceOf(StoreApiError);
    expect((error as StoreApiError).status).toBe(503);
    expect(twin.clock.now() - started, says(rule, 'bounded back-off: the client gives up within a minute')).toBeLessThan(60_000);
  }),
);
