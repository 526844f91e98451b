import { observationSink } from '../support/observation.ts';
import { test } from '../support/fixtures.ts';
import { assertProperty } from '../support/propertyRun.ts';
import { checksRules } from '../support/ruleAnnotations.ts';
import { LOCALIZED_RULES, localizedNameProperty } from './localized.property.ts';

test(
  'a product name written as a string or a per-language object is answered, and read back, as the localized rules predict (POST, PUT, GET)',
  checksRules(LOCALIZED_RULES),
  async ({ storeArena, target }, testInfo) => {
    if (storeArena.kind === 'twin') {
      // Every case opens a store with a generated language set and main language (about 1-2 s for 75 cases).
      await assertProperty(testInfo, localizedNameProperty(storeArena), { numRuns: 75 });
      return;
    }
    test.skip(!storeArena.allowWrites, `it creates, renames and deletes products on the configured store (${target}); set STORE_ALLOW_WRITES=1 to allow it.`);
    const store = await storeArena.openStore();
    test.skip(store.languages.length === 0, "GET /store did not give the store's languages, so the model cannot predict a name.");
    testInfo.annotations.push({
      type: 'scope',
      description: `live: the configured store's languages [${store.languages.join(', ')}] only (generated language sets need the twin); what an object leaves out on create is not asserted`,
    });
    // A few cases of at most 3 writes: about 20 paced requests, each product deleted after its case.
    const observe = observationSink(testInfo);
    await assertProperty(testInfo, localizedNameProperty(storeArena, { live: store, observe, maxWrites: 3 }), { numRuns: 3 });
  },
);
