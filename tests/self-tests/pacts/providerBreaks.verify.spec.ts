/**
 * The pact verification can fail: each test puts a proxy that breaks the
 * contract in one observable way (src/testing/providerBreaks) in front of a faithful twin,
 * verifies the interaction that break touches, and expects Pact's own mismatch
 * report. States are still arranged through the twin's control API.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { harnessConfig } from '../../../src/config/harnessConfig.ts';
import { MEDIA_SEED } from '../../../src/twins/media/seedFacts.ts';
import { MediaClient } from '../../../src/clients/media/MediaClient.ts';
import { startBreakingProxy, type ProviderBreak, type ProxyContext } from '../../../src/testing/providerBreaks/breakingProxy.ts';
import { MEDIA_BREAKS } from '../../../src/testing/providerBreaks/mediaBreaks.ts';
import { STORE_BREAKS } from '../../../src/testing/providerBreaks/storeBreaks.ts';
import { MEDIA_PACT, STORE_PACT } from '../../../contracts/pactNames.ts';
import { mediaTwinTarget } from '../../../contracts/media/providerStates.ts';
import { storeTwinTarget } from '../../../contracts/store/providerStates.ts';
import { readPact, type PactNames } from '../../../contracts/verification/pactFile.ts';
import type { PactProvider } from '../../../contracts/verification/pactProvider.ts';
import { PactMismatchError, verifyInteraction } from '../../../contracts/verification/verifyInteraction.ts';

/** Which interaction each break must fail, and what Pact's report must name. */
const BREAKS: { api: 'store' | 'media'; breakName: string; interaction: string; reportNames: RegExp }[] = [
  { api: 'store', breakName: 'timestamps-with-colon', interaction: 'a request for the first page of products, 30 per page', reportNames: /created_at/ },
  { api: 'store', breakName: 'link-relative-urls', interaction: 'a request for the first page of products, 30 per page', reportNames: /Link/ },
  { api: 'store', breakName: 'total-count-missing', interaction: 'a request for the first page of products, 30 per page', reportNames: /X-Total-Count/ },
  { api: 'store', breakName: 'localized-name-as-string', interaction: 'a request to create a product with a plain-string name', reportNames: /\$\.name/ },
  { api: 'store', breakName: 'validation-errors-flat', interaction: 'a request to create a product with a blank name', reportNames: /\$/ },
  { api: 'store', breakName: 'no-429', interaction: 'a request when the rate-limit bucket is full', reportNames: /status code 429|429/ },
  { api: 'store', breakName: 'user-agent-optional', interaction: 'a request without a User-Agent header', reportNames: /400/ },
  { api: 'store', breakName: 'top-level-parent-zero', interaction: 'a request for one category', reportNames: /parent/ },
  { api: 'media', breakName: 'numeric-ids', interaction: 'a request for one anime', reportNames: /\$\.data\.id/ },
  { api: 'media', breakName: 'plain-json-media-type', interaction: 'a request for one anime', reportNames: /Content-Type/ },
  { api: 'media', breakName: 'included-dropped', interaction: 'a request for TV anime with their categories, 2 per page', reportNames: /included/ },
  { api: 'media', breakName: 'adult-visible-anonymously', interaction: 'an anonymous request for an adult anime', reportNames: /404/ },
  { api: 'media', breakName: 'errors-not-jsonapi', interaction: 'an anonymous request for an adult anime', reportNames: /errors/ },
  { api: 'media', breakName: 'adult-include-not-null', interaction: 'an anonymous request for that library entry including its anime', reportNames: /anime/ },
];

for (const { api, breakName, interaction: description, reportNames } of BREAKS) {
  test(`the ${api} pact fails when the provider breaks it: ${breakName}`, async ({}, testInfo) => {
    const config = harnessConfig();
    test.skip(config.target !== 'twin', 'breaks are put in front of a twin; the live service is verified as it is');
    if (config.store.mode !== 'twin' || config.media.mode !== 'twin') return;
    const mediaApiUrl = config.media.apiUrl;
    const providerBreak: ProviderBreak | undefined = (api === 'store' ? STORE_BREAKS : MEDIA_BREAKS)[breakName];
    expect(providerBreak, `no break ${breakName} in src/testing/providerBreaks`).toBeDefined();
    const names: PactNames = api === 'store' ? STORE_PACT : MEDIA_PACT;
    const pact = readPact(names);
    const interaction = pact.interactions.find((i) => i.description === description);
    expect(interaction, `the ${api} pact has no interaction "${description}"`).toBeDefined();

    const faithful: PactProvider = api === 'store' ? storeTwinTarget(config.store) : mediaTwinTarget(config.media);
    // Media breaks that leak adult titles replay requests as a signed-in user; a state resets the
    // media twin (and its tokens), so the user signs in after each state is arranged.
    const ctx: ProxyContext = {};
    const { email, password } = MEDIA_SEED.users.adultAllowed;
    const signIn = async () => (await new MediaClient({ baseUrl: mediaApiUrl }).token({ username: email, password })).access_token;
    const states = Object.fromEntries(
      Object.entries(faithful.states).map(([name, arrange]) => [
        name,
        async (params: Record<string, unknown>) => {
          const arranged = await arrange(params);
          if (api === 'media') ctx.signedInToken = await signIn();
          return arranged;
        },
      ]),
    );
    const proxy = await startBreakingProxy(faithful.baseUrl, providerBreak!, ctx);
    try {
      const error = await verifyInteraction({
        pact,
        interaction: interaction!,
        target: { ...faithful, baseUrl: proxy.url, states },
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, `the pact still verified against a provider that breaks ${providerBreak!.breaks}`).toBeInstanceOf(PactMismatchError);
      const report = (error as PactMismatchError).report;
      await testInfo.attach('pact mismatch report', { body: report, contentType: 'text/plain' });
      expect(report, "Pact's report names what broke").toMatch(reportNames);
    } finally {
      proxy.server.close();
    }
  });
}
