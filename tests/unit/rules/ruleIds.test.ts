/**
 * Rule ids are checked by the compiler: every place a test names a rule takes
 * the catalogues' literal ids, so a misspelt id is a type error, not a throw at
 * run time. The `@ts-expect-error` lines fail `tsc` (npm run lint) the day a
 * misspelt id compiles.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { findRule, type RuleId } from '../../../src/rules/catalogues.ts';
import { STORE_RULES, type StoreRuleId } from '../../../src/rules/storeRules.ts';
import type { MediaRuleId } from '../../../src/rules/mediaRules.ts';
import { broken, RuleBroken, notVerified } from '../../../src/testing/ruleTest.ts';
import { checksRules } from '../../../properties/support/ruleAnnotations.ts';

// Never called: only compiled.
function compileOnly(): void {
  const good: StoreRuleId = 'store.pagination.total-count';
  const media: MediaRuleId = 'media.pagination.follow-next';
  const any: RuleId[] = [good, media];
  // @ts-expect-error a misspelt store id
  const typo: StoreRuleId = 'store.pagination.total-cuont';
  // @ts-expect-error a media id is not a store id
  const crossed: StoreRuleId = 'media.pagination.follow-next';
  // @ts-expect-error checksRules takes catalogue ids only
  checksRules(['store.json.no-rot-element']);
  // @ts-expect-error broken() names a real rule
  broken('store.nothing.here', 'x');
  // @ts-expect-error notVerified() names a real rule
  notVerified(undefined as never, 'media.nope', 'x');
  // @ts-expect-error the catalogue has no such key
  void STORE_RULES['store.json.no-rot-element'];
  void [good, media, any, typo, crossed];
}
void compileOnly;

test('ids read at run time are looked up, not trusted; RuleBroken names its rule', () => {
  expect(findRule('store.pagination.total-count')?.id).toBe('store.pagination.total-count');
  expect(findRule('store.pagination.total-cuont')).toBeUndefined();
  expect(findRule('toString')).toBeUndefined();
  const error = (() => {
    try {
      broken('store.pagination.total-count', 'X-Total-Count is 5, the walk saw 4');
    } catch (caught) {
      return caught;
    }
    return undefined;
  })();
  expect(error).toBeInstanceOf(RuleBroken);
  expect((error as RuleBroken).message).toBe('[store.pagination.total-count] X-Total-Count is 5, the walk saw 4');
});
