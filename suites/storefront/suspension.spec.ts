import { expect, test, verifies } from '../fixtures/storefrontFixtures.ts';
import { callProblems, elementProblems, expectNoProblems } from '../fixtures/storefrontChecks.ts';
import { elementOf, findElement, openProductPage, pickAnotherVariant, recordedCalls, registerRecorder } from '../fixtures/storefrontPage.ts';
import { says } from '../../src/testing/ruleTest.ts';

// States and transitions: while suspended every API call answers 402; storefront scripts are not included.

test(
  ...verifies(
    'store.storefront.works-while-suspended',
    'the product page and its variant event work while the API answers 402',
    async ({ storefront, page, rule }) => {
      const twin = storefront.twin!; // needs the twin: skipped on live
      await twin.suspend();
      const api = await twin.client.send({ method: 'GET', path: `/products/${twin.productId}`, retry: false });
      expect(api.status, says(rule, `the store is suspended, so GET /products/${twin.productId} must answer 402; got ${api.status}`)).toBe(402);

      await openProductPage(page, storefront.productUrl, rule);
      await registerRecorder(page, rule);
      const pick = await pickAnotherVariant(page, rule);
      const calls = await recordedCalls(page, 1);
      expectNoProblems(rule, "while suspended, LS.registerOnChangeVariant's callback", callProblems(calls, 1, [pick.to]));
      const finding = await findElement(page, elementOf(calls[0]) ?? '');
      expectNoProblems(rule, 'while suspended, document.querySelector(variant.element)', elementProblems(finding, { variantId: pick.to }));
    },
  ),
);
