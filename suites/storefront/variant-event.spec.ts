import { expect, test, verifies } from '../fixtures/storefrontFixtures.ts';
import { callProblems, elementProblems, expectNoProblems, variantProblems } from '../fixtures/storefrontChecks.ts';
import { elementOf, findElement, openProductPage, pickAnotherVariant, recordedCalls, registerRecorder } from '../fixtures/storefrontPage.ts';
import { says } from '../../src/testing/ruleTest.ts';

// Storefront script event: LS.registerOnChangeVariant(callback), called with one variant object when the chosen variant changes.

test(
  ...verifies('store.storefront.on-change-variant', 'a registered callback gets one variant object per change', async ({ storefront, page, rule }) => {
    await openProductPage(page, storefront.productUrl, rule);
    await registerRecorder(page, rule);
    const picks = [await pickAnotherVariant(page, rule), await pickAnotherVariant(page, rule)];
    const calls = await recordedCalls(page, picks.length);
    // On the twin the picker's values are variant ids, so each call must describe the variant chosen.
    const chosen = storefront.twin ? picks.map((pick) => pick.to) : undefined;
    expectNoProblems(rule, `after ${picks.length} variant changes, LS.registerOnChangeVariant's callback`, callProblems(calls, picks.length, chosen));
  }),
);

test(
  ...verifies('store.storefront.variant-element', "variant.element finds the container of the chosen variant's form", async ({ storefront, page, rule }) => {
    await openProductPage(page, storefront.productUrl, rule);
    await registerRecorder(page, rule);
    const pick = await pickAnotherVariant(page, rule);
    const [call] = await recordedCalls(page, 1);
    expect(call, says(rule, `choosing ${pick.to} in ${pick.selector} called no callback, so there is no variant.element to check`)).toBeDefined();
    expectNoProblems(rule, 'the variant object', variantProblems(call!));
    const selector = elementOf(call)!;
    const finding = await findElement(page, selector);
    // On the twin the form names its variant: it must be the chosen one, and shown.
    expectNoProblems(
      rule,
      `document.querySelector(variant.element) after choosing ${pick.to}`,
      elementProblems(finding, storefront.twin ? { variantId: pick.to } : {}),
    );
  }),
);
