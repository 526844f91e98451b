/**
 * The provider-state vocabulary (contracts/verification/stateVocabulary.ts and the two state tables):
 * how a pact's state is matched, what an unknown one says, that every state is declared in all its
 * places (template, documentation, twin and live handlers) and documented in docs/provider-states.md,
 * and that every state arranges on a twin in this process.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { HARNESS_USER_AGENT, loadConfig } from '../../../src/config/harnessConfig.ts';
import { freePort } from '../../../src/http/freePort.ts';
import { startMediaTwin, type RunningMediaTwin } from '../../../src/twins/media/server.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../../src/twins/store/server.ts';
import { STORE_STATES, STORE_VOCABULARY, storeLiveTarget, storeTwinTarget } from '../../../contracts/store/providerStates.ts';
import { MEDIA_STATES, MEDIA_VOCABULARY, mediaLiveTarget, mediaTwinTarget } from '../../../contracts/media/providerStates.ts';
import { closestState, matchState, resolveStates, UnknownProviderStateError } from '../../../contracts/verification/stateVocabulary.ts';
import { isUnavailable, type PactProvider } from '../../../contracts/verification/pactProvider.ts';
import { withVocabularyTables } from '../../../contracts/verification/vocabularyDoc.ts';
import { PROVIDER_STATES_DOC, vocabularyTables } from '../../../scripts/providerStatesDoc.ts';
import { LIVE_ENV } from '../config/configEnv.ts';

test.describe('matching a pact state to the vocabulary', () => {
  test('the exact template takes its values from the params', () => {
    const match = matchState(STORE_VOCABULARY, STORE_STATES.hasProducts, { storeId: 1, count: 30 });
    expect(match?.entry.name).toBe(STORE_STATES.hasProducts);
    expect(match?.params).toEqual({ storeId: 1, count: 30 });
  });

  test('a name in words gives the values in it; params win; spaces and case do not matter', () => {
    expect(matchState(STORE_VOCABULARY, 'Store 7  has 30 products')?.params).toEqual({ storeId: '7', count: '30' });
    expect(matchState(STORE_VOCABULARY, 'store 7 has 30 products', { count: 45 })?.params).toEqual({ storeId: '7', count: 45 });
    // A placeholder left in the name is the template's, not a value.
    expect(matchState(STORE_VOCABULARY, 'store {storeId} has 3 products')?.params).toEqual({ count: '3' });
  });

  test('overlapping templates: the more specific one is listed first and wins', () => {
    expect(matchState(MEDIA_VOCABULARY, 'anime with slug trigun exists')?.entry.name).toBe(MEDIA_STATES.animeSlug);
    expect(matchState(MEDIA_VOCABULARY, 'anime 1 exists')?.entry.name).toBe(MEDIA_STATES.animeExists);
    expect(matchState(MEDIA_VOCABULARY, 'user 1 has library entries')?.entry.name).toBe(MEDIA_STATES.userHasLibrary);
    expect(matchState(MEDIA_VOCABULARY, 'user 1 has library entries 1,2')?.entry.name).toBe(MEDIA_STATES.userLibrary);
    expect(matchState(STORE_VOCABULARY, 'store 1 has a product named Mochila')?.entry.name).toBe(STORE_STATES.hasProductNamed);
    expect(matchState(STORE_VOCABULARY, 'store 1 has product 12')?.entry.name).toBe(STORE_STATES.hasProduct);
  });

  test('an unknown state fails naming the interaction, the closest known state and every known one', () => {
    const interaction = { description: 'a request for a menu', providerStates: [{ name: 'store 1 has a categry tree' }] };
    let error: unknown;
    try {
      resolveStates(STORE_VOCABULARY, 'store', interaction);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnknownProviderStateError);
    const message = (error as Error).message;
    expect(message).toContain('Unknown provider state "store 1 has a categry tree" in the pact interaction "a request for a menu"');
    expect(message).toContain(`Closest known state: "${STORE_STATES.hasCategoryTree}"`);
    for (const entry of STORE_VOCABULARY) expect(message).toContain(`  - ${entry.name}`);
    expect(message).toMatch(/Fix: .*--states/);
    expect(closestState(MEDIA_VOCABULARY, 'user 2 is signed-in')?.name).toBe(MEDIA_STATES.signedIn);
  });
});

/** Config of a live run, for the live tables' keys only: nothing is sent. */
const live = loadConfig({ ...LIVE_ENV, KITSU_API_URL: 'https://kitsu.example.invalid/api/edge' });

test.describe('every state is declared in all its places', () => {
  const tables: [string, readonly { name: string }[], Record<string, string>, () => PactProvider[]][] = [
    [
      'store',
      STORE_VOCABULARY,
      STORE_STATES,
      () => [
        storeTwinTarget({ mode: 'twin', twinUrl: 'http://127.0.0.1:1', port: 1, userAgent: HARNESS_USER_AGENT, allowWrites: true }),
        storeLiveTarget(live.store.mode === 'live' ? live.store : (undefined as never)),
      ],
    ],
    [
      'media',
      MEDIA_VOCABULARY,
      MEDIA_STATES,
      () => [
        mediaTwinTarget({ mode: 'twin', twinUrl: 'http://127.0.0.1:1', port: 1, apiUrl: 'http://127.0.0.1:1/api/edge', allowWrites: true }),
        mediaLiveTarget(live.media.mode === 'live' ? live.media : (undefined as never)),
      ],
    ],
  ];
  for (const [api, vocabulary, templates, targets] of tables) {
    test(`${api}: the templates, the documented vocabulary, and the twin's and live's handlers name the same states`, () => {
      const names = vocabulary.map((entry) => entry.name);
      expect(names, `${api}: each template once in the vocabulary`).toEqual([...new Set(Object.values(templates))]);
      for (const target of targets()) {
        expect(Object.keys(target.states).sort(), `${api}: the ${target.name}'s table handles exactly the vocabulary`).toEqual([...names].sort());
        expect(target.vocabulary).toBe(vocabulary);
      }
    });
  }

  test(`${PROVIDER_STATES_DOC} shows the vocabulary as the tables declare it (npm run docs:states writes it)`, () => {
    const page = readFileSync(PROVIDER_STATES_DOC, 'utf8');
    expect(page, `${PROVIDER_STATES_DOC} is out of date: run npm run docs:states`).toBe(withVocabularyTables(page, vocabularyTables()));
  });
});

test.describe('every state arranges on the twins', () => {
  let store: RunningStoreTwin;
  let media: RunningMediaTwin;
  test.beforeAll(async () => {
    store = await startStoreTwin({ port: await freePort() });
    media = await startMediaTwin({ port: await freePort() });
  });
  test.afterAll(async () => {
    await store?.close();
    await media?.close();
  });

  /** An example of each state's parameters that the twins' seeds hold. */
  const EXAMPLES: Record<string, Record<string, unknown>> = {
    [STORE_STATES.hasProducts]: { count: 3 },
    [STORE_STATES.hasProduct]: { productId: 999999 },
    [STORE_STATES.hasProductNamed]: { name: 'Mochila roja' },
    [STORE_STATES.acceptsProducts]: { name: 'Mochila' },
    [MEDIA_STATES.tvAnime]: { count: 2 },
    [MEDIA_STATES.animeSlug]: { slug: 'trigun' },
    [MEDIA_STATES.mangaSlug]: { slug: 'monster' },
    [MEDIA_STATES.animeExists]: { id: '1' },
    [MEDIA_STATES.mangaExists]: { id: '1' },
    [MEDIA_STATES.adultAnime]: { id: '7' },
    [MEDIA_STATES.adultManga]: { id: '5' },
    [MEDIA_STATES.animeEpisodes]: { id: '1' },
    [MEDIA_STATES.animeCategories]: { id: '1' },
    [MEDIA_STATES.mangaCategories]: { id: '1' },
    [MEDIA_STATES.adultLibraryEntry]: { id: '4' },
    [MEDIA_STATES.userLibrary]: { userId: '1', ids: '1,2' },
    [MEDIA_STATES.userHasLibrary]: { userId: '1' },
    [MEDIA_STATES.groupMembers]: { groupId: '1' },
    [MEDIA_STATES.groupInvites]: { groupId: '1' },
    [MEDIA_STATES.pendingInvite]: { inviteId: '1', userId: '3' },
    [MEDIA_STATES.signedIn]: { userId: '2' },
  };
  /** What each state gives the pact, beyond the store id. */
  const GIVES: Record<string, string[]> = {
    [STORE_STATES.hasProduct]: ['productId'],
    [STORE_STATES.hasProductNamed]: ['productId'],
    [STORE_STATES.hasProductWithVariants]: ['productId'],
    [STORE_STATES.hasProductWithImages]: ['productId'],
    [STORE_STATES.hasCategory]: ['categoryId'],
    [STORE_STATES.hasCategoryTree]: ['categoryId'],
    [STORE_STATES.codeApproved]: ['clientId', 'clientSecret', 'code'],
    [STORE_STATES.hasLeafCategory]: ['categoryId'],
    [STORE_STATES.hasTopLevelCategory]: ['categoryId'],
    [STORE_STATES.oneLanguage]: ['language'],
    [MEDIA_STATES.animeSlug]: ['id'],
    [MEDIA_STATES.mangaSlug]: ['id'],
  };

  test('the store twin arranges each store state and gives the values it documents', async () => {
    test.setTimeout(60_000);
    const target = storeTwinTarget({ mode: 'twin', twinUrl: store.url, port: 0, userAgent: HARNESS_USER_AGENT, allowWrites: true });
    for (const entry of STORE_VOCABULARY) {
      const arranged = await target.states[entry.name]!(EXAMPLES[entry.name] ?? {});
      expect(isUnavailable(arranged), `${entry.name}: arranged on the twin`).toBe(false);
      if (isUnavailable(arranged)) continue;
      expect(Object.keys(arranged.values ?? {}).sort(), `${entry.name}: the values it gives`).toEqual(['storeId', ...(GIVES[entry.name] ?? [])].sort());
      expect(arranged.headers?.['authentication'], `${entry.name}: the store token, for the request filter`).toMatch(/^bearer \S+$/);
      await arranged.teardown?.();
    }
  });

  test('the media twin arranges each media state; one its seed does not hold fails naming the fix', async () => {
    test.setTimeout(60_000);
    const target = mediaTwinTarget({ mode: 'twin', twinUrl: media.url, port: 0, apiUrl: `${media.url}/api/edge`, allowWrites: true });
    for (const entry of MEDIA_VOCABULARY) {
      const arranged = await target.states[entry.name]!(EXAMPLES[entry.name] ?? {});
      expect(isUnavailable(arranged), `${entry.name}: arranged on the twin`).toBe(false);
      if (isUnavailable(arranged)) continue;
      expect(Object.keys(arranged.values ?? {}).sort(), `${entry.name}: the values it gives`).toEqual([...(GIVES[entry.name] ?? [])].sort());
    }
    const signed = await target.states[MEDIA_STATES.signedIn]!({ userId: '2' });
    expect(isUnavailable(signed) ? undefined : signed.headers?.['authorization']).toMatch(/^Bearer \S+$/);
    await expect(target.states[MEDIA_STATES.animeSlug]!({ slug: 'no-such-slug' })).rejects.toThrow(/cannot arrange "anime with slug \{slug\} exists".*Fix/);
    await expect(target.states[MEDIA_STATES.adultAnime]!({ id: '1' })).rejects.toThrow(/seed does not hold/);
  });
});
