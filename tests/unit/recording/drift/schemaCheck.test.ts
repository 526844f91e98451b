import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { checkRecordings } from '../../../../src/recording/drift/schemaCheck.ts';
import { CRUD, PRODUCT, driftTrees, edit, interaction, removeDriftTrees } from './driftTrees.ts';

test.afterAll(removeDriftTrees);

test('checkRecordings finds the schema breach of an edited recording, and none in the recorded ones', () => {
  const { stored } = driftTrees();
  expect(checkRecordings(stored)).toEqual([]);
  edit(stored, CRUD, (c) => {
    delete (interaction(c, 'GET', PRODUCT, 200).response as Record<string, unknown>).name;
  });
  const breaches = checkRecordings(stored);
  expect(breaches).toHaveLength(1);
  expect(breaches[0]).toMatchObject({
    api: 'store',
    file: CRUD.replace(/\.raw\.json$/, ''),
    interaction: 2,
    route: 'GET /v1/100001/products/100001000687',
    status: 200,
    schema: 'store/product',
  });
  expect(breaches[0]!.message).toContain('/name: required member is missing');
});
