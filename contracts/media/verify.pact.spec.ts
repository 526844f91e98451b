/**
 * Verifies the media pacts against the media twin with Pact's Verifier. Every
 * state starts from the seed (the twin's reset); the seed already holds what the
 * states name (src/twins/media/seedFacts.ts), so the handlers only check it.
 */
import { expect, test } from '@playwright/test';
import { Verifier } from '@pact-foundation/pact';
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { MEDIA_SEED } from '../../src/twins/media/seedFacts.ts';
import { MediaTwinControl } from '../../src/testing/MediaTwinControl.ts';
import { MEDIA_PACT } from './mediaPact.ts';

test('the media twin honours every media pact', async () => {
  const config = harnessConfig().media;
  test.skip(config.mode !== 'twin', 'this verification seeds provider states through the twin control API');
  if (config.mode !== 'twin') return;
  const control = new MediaTwinControl(config.twinUrl);
  await control.ready();
  const fromSeed = (check: (params: Record<string, string | number>) => boolean) => async (params?: unknown) => {
    await control.reset();
    expect(check((params ?? {}) as Record<string, string | number>), 'the seed holds what the state names').toBe(true);
    return {};
  };
  await new Verifier({
    provider: MEDIA_PACT.provider,
    providerBaseUrl: config.twinUrl,
    pactUrls: [`${process.cwd()}/${MEDIA_PACT.dir}/${MEDIA_PACT.consumer}-${MEDIA_PACT.provider}.json`],
    logLevel: 'warn',
    stateHandlers: {
      'the catalogue has {count} TV anime': fromSeed(() => true),
      'anime {id} exists': fromSeed(({ id }) => !(MEDIA_SEED.adultAnimeIds as readonly string[]).includes(String(id))),
      'anime {id} is adult-flagged': fromSeed(({ id }) => (MEDIA_SEED.adultAnimeIds as readonly string[]).includes(String(id))),
      'library entry {id} is on an adult anime': fromSeed(({ id }) => MEDIA_SEED.adultLibraryEntry.id === String(id)),
    },
  }).verifyProvider();
});
