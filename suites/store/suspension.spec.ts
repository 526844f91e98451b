import { expect, test, verifies } from '../fixtures/storeFixtures.ts';
import { expectStatus } from '../fixtures/storeChecks.ts';
import { says } from '../../src/testing/ruleTest.ts';
import { PaymentRequiredError } from '../../src/clients/store/errors.ts';

// States and transitions: accessible <-> suspended; while suspended every API call answers 402.

test(
  ...verifies('store.suspension.every-call-402', 'reads, writes and HEAD while suspended; all served again after payment', async ({ store, rule }) => {
    test.skip(!store.twin, 'needs the twin to suspend the store');
    const calls = [
      { method: 'GET', path: '/products' },
      { method: 'HEAD', path: '/products' },
      { method: 'GET', path: '/categories' },
      { method: 'GET', path: '/store' },
      { method: 'POST', path: '/products', json: { name: 'During suspension' } },
      { method: 'GET', path: '/webhooks' },
    ] as const;
    await store.twin!.suspend();
    for (const call of calls) expectStatus(await store.send({ ...call, retry: false }), 402, rule);
    await store.twin!.resume();
    for (const call of calls.filter((c) => c.method !== 'POST')) {
      const res = await store.send({ ...call, retry: false });
      expect(res.status, says(rule, `${call.method} ${call.path} must work again after payment, got ${res.status}`)).toBe(200);
    }
  }),
);

test(
  ...verifies('store.client.payment-required-message', 'the client tells the user to resume payment', async ({ store, rule }) => {
    test.skip(!store.twin, 'needs the twin to suspend the store');
    await store.twin!.suspend();
    const error = await store.client.listProducts().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, says(rule, 'a 402 reaches the caller as a PaymentRequiredError')).toBeInstanceOf(PaymentRequiredError);
    const message = (error as Error).message;
    expect(message, says(rule, 'the message says payment must be resumed')).toMatch(/payment/i);
    expect(message, says(rule, 'the message says payment must be resumed')).toMatch(/resum/i);
    expect(message, says(rule, 'not a generic server error')).not.toMatch(/internal server error/i);
    expect(message, 'no secret in the message').not.toContain(store.token);
  }),
);
