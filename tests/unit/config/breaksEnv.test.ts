import { expect, test } from '../../../src/testing/harnessTest.ts';
import { breaksFirstPort, breaksHeldOut, breaksParallel } from '../../../src/config/env.ts';

test('npm run breaks reads BREAKS_*, and nothing else', () => {
  expect([breaksParallel({}), breaksFirstPort({}), breaksHeldOut({})]).toEqual([2, 4200, undefined]);
  expect([
    breaksParallel({ BREAKS_PARALLEL: '3' }),
    breaksFirstPort({ BREAKS_FIRST_PORT: '4300' }),
    breaksHeldOut({ BREAKS_HELD_OUT: 'review/set.ts' }),
  ]).toEqual([3, 4300, 'review/set.ts']);
  expect(
    [breaksParallel({ MUTANTS_PARALLEL: '4' }), breaksFirstPort({ MUTANTS_FIRST_PORT: '4400' }), breaksHeldOut({ MUTANTS_HELD_OUT: 'old/set.ts' })],
    'an old name is never read in place of the new one (it is refused: renamedNames.test.ts)',
  ).toEqual([2, 4200, undefined]);
});
