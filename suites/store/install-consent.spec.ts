import { expect, test, verifies } from '../fixtures/installConsentFixtures.ts';
import { InstallFlow, postToken, startRedirectReceiver, type RedirectReceiver } from '../fixtures/installFlow.ts';
import { says } from '../../src/testing/ruleTest.ts';
import type { Page } from '@playwright/test';
import type { Rule } from '../../src/rules/Rule.ts';

// Authentication: the install flow in chromium, as a store owner clicks through the consent page.

/** The owner opens the app's authorize URL, picks the store and presses a button; the browser follows the redirect. */
async function clickThrough(page: Page, authorizeUrl: string, storeId: number, button: 'Install app' | 'Cancel', rule: Rule): Promise<void> {
  await page.goto(authorizeUrl);
  await page.getByLabel('Store').selectOption(String(storeId));
  await Promise.all([page.waitForURL((url) => !url.pathname.endsWith('/authorize')), page.getByRole('button', { name: button }).click()]).catch(
    (error: unknown) => {
      throw new Error(says(rule, `pressing "${button}" on ${authorizeUrl} did not lead away from the consent page: ${(error as Error).message}`));
    },
  );
}

/** The one query the app's redirect endpoint received. */
function redirectQuery(receiver: RedirectReceiver, rule: Rule): URLSearchParams {
  expect(receiver.received.length, says(rule, "the browser reached the app's redirect URL once")).toBe(1);
  return receiver.received[0]!;
}

test(
  ...verifies(
    'store.oauth.authorize-consent',
    'the page names the app and its scopes; Install redirects with a code and the state',
    async ({ store, page, rule }) => {
      const receiver = await startRedirectReceiver();
      try {
        const flow = new InstallFlow(store.twin!.control);
        const app = await flow.registerApp({ name: 'Harness Consent App', redirectUrl: receiver.url, scopes: ['read_products'] });
        const authorizeUrl = `${app.authorizeUrl}?state=${encodeURIComponent('owner state/1')}`;
        await page.goto(authorizeUrl);
        await expect(page.getByRole('heading', { level: 1 }), says(rule, 'the consent page names the app')).toHaveText('Install Harness Consent App');
        await expect(page.locator('[data-scope]'), says(rule, 'the consent page lists the scopes the app asks for')).toHaveText([
          'See your products and categories',
        ]);
        await clickThrough(page, authorizeUrl, store.twin!.info.storeId, 'Install app', rule);
        const query = redirectQuery(receiver, rule);
        expect(query.get('state'), says(rule, 'the redirect carries the same state')).toBe('owner state/1');
        expect(query.get('code'), says(rule, 'the redirect carries a code')).toMatch(/\S/);
      } finally {
        await receiver.close();
      }
    },
  ),
);

test(
  ...verifies('store.oauth.authorize-consent', 'Cancel redirects with error=access_denied and no code', async ({ store, page, rule }) => {
    const receiver = await startRedirectReceiver();
    try {
      const flow = new InstallFlow(store.twin!.control);
      const app = await flow.registerApp({ redirectUrl: receiver.url });
      await clickThrough(page, `${app.authorizeUrl}?state=declined`, store.twin!.info.storeId, 'Cancel', rule);
      const query = redirectQuery(receiver, rule);
      expect(Object.fromEntries(query), says(rule, 'a declined install is access_denied, with the state')).toEqual({
        error: 'access_denied',
        state: 'declined',
      });
    } finally {
      await receiver.close();
    }
  }),
);

test(
  ...verifies(
    'store.oauth.install-grants-token',
    'an outside app installs with fetch and the browser: authorize, approve, redirect, exchange, first API call',
    async ({ store, page, rule }) => {
      // The app knows only URLs, its credentials and the code its redirect endpoint receives: no harness client, no control API after registration.
      const receiver = await startRedirectReceiver();
      try {
        const twinUrl = store.twin!.control.twinUrl;
        const app = await new InstallFlow(store.twin!.control).registerApp({ name: 'Outside App', redirectUrl: receiver.url });
        const state = 'outside-app-state-42';
        await clickThrough(page, `${twinUrl}/apps/${app.appId}/authorize?state=${state}`, store.twin!.info.storeId, 'Install app', rule);
        const query = redirectQuery(receiver, rule);
        expect(query.get('state'), says(rule, 'the app gets its state back')).toBe(state);
        const token = await postToken(`${twinUrl}/apps/authorize/token`, {
          client_id: app.appId,
          client_secret: app.clientSecret,
          grant_type: 'authorization_code',
          code: query.get('code') ?? '',
        });
        expect(token.status, says(rule, `the exchange answered ${token.status}: ${token.text}`)).toBe(200);
        const { access_token: accessToken, user_id: userId } = token.body as { access_token: string; user_id: string };
        const first = await fetch(`${twinUrl}/v1/${userId}/products?per_page=1`, {
          headers: { Authentication: `bearer ${accessToken}`, 'User-Agent': 'Outside App (https://example.invalid/outside-app)' },
        });
        expect(first.status, says(rule, `the first API call with the new token answered ${first.status}`)).toBe(200);
        expect(userId, says(rule, 'the token is for the store the owner picked')).toBe(store.storeId);
        expect(Array.isArray(await first.json()), says(rule, 'the first call reads the store')).toBe(true);
      } finally {
        await receiver.close();
      }
    },
  ),
);
