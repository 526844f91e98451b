import { expect, test } from '../../../src/testing/harnessTest.ts';
import { CATALOGUES } from '../../../src/rules/catalogues.ts';
import { AREA_FEATURES, allureMetaFor, featureOf, HARNESS_EPIC } from '../../../src/reporting/allureMeta.ts';
import { headingsOf, ruleSpecFile, ruleSpecLink, SPEC_FILES } from '../../../src/reporting/specLinks.ts';
import { CATEGORY_NAMES, reportCategories } from '../../../src/reporting/categories.ts';
import { AFFECTED_LABEL, NO_CONSUMER } from '../../../src/reporting/affectedAllure.ts';
import { matchCategory, normalizeCategoriesConfig } from '@allurereport/core-api';
import { exchangeText, exchangeTitle } from '../../../src/reporting/httpAttachments.ts';

const allRules = Object.values(CATALOGUES).flatMap((catalogue) => Object.values(catalogue));
const label = (meta: ReturnType<typeof allureMetaFor>, name: string) => meta.labels.filter((l) => l.name === name).map((l) => l.value);

test('every area of every rule has a feature the report groups it under', () => {
  const areas = [...new Set(allRules.map((rule) => rule.id.split('.').slice(0, 2).join('.')))];
  expect(
    areas.filter((area) => !AREA_FEATURES[area]),
    'add these areas to AREA_FEATURES in src/reporting/allureMeta.ts',
  ).toEqual([]);
});

test("every rule's section is a heading of its API's spec or field notes, so its link lands", () => {
  test.skip(headingsOf(SPEC_FILES.store!.spec).length === 0, 'the specs are not beside the repository (../shared/specs) on this machine');
  const dangling = allRules.filter((rule) => !headingsOf(ruleSpecFile(rule)).includes(rule.section)).map((rule) => `${rule.id}: "${rule.section}"`);
  expect(dangling, 'these sections are not headings of the documents; fix the rule or the heading').toEqual([]);
});

test('a suite test is labelled API / area / rule, with severity, target and a link to the section', () => {
  const meta = allureMetaFor(
    { project: 'store', file: 'suites/store/pagination.spec.ts', title: 'store.pagination.total-count: x', ruleIds: ['store.pagination.total-count'] },
    'replay',
    { HARNESS_SPEC_BASE_URL: 'https://example.invalid/specs' },
  );
  expect(label(meta, 'epic')).toEqual(['Store Commerce API']);
  expect(label(meta, 'feature')).toEqual(['Pagination']);
  expect(label(meta, 'story')).toEqual(['store.pagination.total-count']);
  expect(label(meta, 'severity')).toEqual(['critical']);
  expect(label(meta, 'target')).toEqual(['replay']);
  expect(meta.parameters).toEqual([{ name: 'target', value: 'replay' }]);
  expect(meta.links[0]!.url).toMatch(/^https:\/\/example\.invalid\/specs\/store-commerce-api\.md#[a-z-]+$/);
  expect(meta.description).toContain('store.pagination.total-count');
});

test('a field-notes rule is normal severity; adult content is its own feature', () => {
  const fieldNote = allRules.find((rule) => rule.source === 'field-notes' && rule.id.startsWith('media.visibility'));
  const id = fieldNote?.id ?? 'media.visibility.adult-direct-404';
  const meta = allureMetaFor({ project: 'media', file: 'suites/media/visibility.spec.ts', title: id, ruleIds: [id] }, 'twin');
  expect(label(meta, 'feature')).toEqual(['Adult content']);
  if (fieldNote) expect(label(meta, 'severity')).toEqual(['normal']);
});

test('pacts are the Contracts feature of their API, one story per interaction; properties the Properties feature', () => {
  const pact = allureMetaFor({ project: 'contracts-verify', file: 'contracts/media/verify.pact.spec.ts', title: 'a request for anime 1', ruleIds: [] }, 'twin');
  expect([label(pact, 'epic'), label(pact, 'feature'), label(pact, 'story')]).toEqual([['Media Tracking API'], ['Contracts'], ['a request for anime 1']]);
  const property = allureMetaFor(
    { project: 'properties', file: 'properties/store/pagination.spec.ts', title: 'pages', ruleIds: ['store.pagination.total-count'] },
    'twin',
  );
  expect([label(property, 'feature'), label(property, 'story')]).toEqual([['Properties'], ['store.pagination.total-count']]);
});

test("the harness's own tests are their own epic, by folder", () => {
  const meta = allureMetaFor({ project: 'unit', file: 'tests/unit/recording/drift.test.ts', title: 't', ruleIds: [] }, 'twin');
  expect([label(meta, 'epic'), label(meta, 'feature'), label(meta, 'story')]).toEqual([[HARNESS_EPIC], ['recording'], ['drift.test.ts']]);
  expect(featureOf('store.webhooks.x')).toBe('Webhooks');
});

test("each rule's link names the document that holds its section", () => {
  test.skip(headingsOf(SPEC_FILES.media!.fieldNotes).length === 0, 'the specs are not beside the repository on this machine');
  const fromNotes = allRules.find((rule) => rule.section === 'Adult content');
  expect(fromNotes, 'a media rule from the field notes section "Adult content"').toBeDefined();
  expect(ruleSpecLink(fromNotes!, {}).url).toContain('media-tracking-api.field-notes.md#adult-content');
});

test.describe('report categories say whose fault a red test is', () => {
  const categories = reportCategories();
  // Allure's own matching (what `allure generate` runs), not a copy of it.
  const rules = normalizeCategoriesConfig({ rules: categories });
  const categorise = (d: { status: string; message?: string; labels?: { name: string; value: string }[] }) =>
    matchCategory(rules, { status: d.status as 'passed', labels: d.labels ?? [], message: d.message, flaky: false })?.name;
  const live = [{ name: 'target', value: 'live' }];
  const mock = [{ name: 'target', value: 'twin' }];

  test('a rule that breaks on a real provider is a broken contract; the same on the twins is a broken test', () => {
    const message = 'Error: [store.pagination.total-count] a list answers with X-Total-Count';
    expect(categorise({ status: 'failed', message, labels: live })).toBe(CATEGORY_NAMES.brokenContract);
    expect(categorise({ status: 'broken', message: '[contract schemas] 1 answer(s) break', labels: live })).toBe(CATEGORY_NAMES.brokenContract);
    expect(categorise({ status: 'failed', message, labels: mock })).toBe(CATEGORY_NAMES.brokenTest);
    // npm run drift's own result: contract breaks in a fresh recording are the provider's.
    const drift = [{ name: 'target', value: 'record' }];
    expect(categorise({ status: 'failed', message: '2 contract breaks, 1 observation: …', labels: drift })).toBe(CATEGORY_NAMES.brokenContract);
  });

  test('a broken contract whose rule some consumer uses comes first, under those consumers; one no consumer uses stays a broken contract', () => {
    const message = 'Error: [store.ratelimit.headers] X-Rate-Limit-Remaining cannot exceed X-Rate-Limit-Limit';
    const affecting = [...live, { name: AFFECTED_LABEL, value: 'store-integration, storefront-menu' }];
    expect(categorise({ status: 'failed', message, labels: affecting })).toBe(CATEGORY_NAMES.affectsConsumers);
    expect(categorise({ status: 'failed', message, labels: [...live, { name: AFFECTED_LABEL, value: NO_CONSUMER }] })).toBe(CATEGORY_NAMES.brokenContract);
    // On the twins a red test is the harness's, whoever it affects.
    expect(categorise({ status: 'failed', message, labels: [...mock, { name: AFFECTED_LABEL, value: 'store-integration' }] })).toBe(CATEGORY_NAMES.brokenTest);
    const category = categories.find((c) => c.name === CATEGORY_NAMES.affectsConsumers)!;
    expect(category.groupBy?.[0]).toEqual({ label: AFFECTED_LABEL });
  });

  test('a replay miss, an observation, a known defect and a plain crash each land in their own category; a plain pass in none', () => {
    expect(categorise({ status: 'broken', message: 'replay: no recording of GET /x. The closest…', labels: live })).toBe(CATEGORY_NAMES.replayMiss);
    expect(categorise({ status: 'passed', labels: [...live, { name: 'finding', value: 'observation' }] })).toBe(CATEGORY_NAMES.observation);
    expect(categorise({ status: 'passed', labels: [...live, { name: 'finding', value: 'known defect' }] })).toBe(CATEGORY_NAMES.knownDefect);
    expect(categorise({ status: 'broken', message: "TypeError: cannot read properties of undefined (reading 'id')", labels: live })).toBe(
      CATEGORY_NAMES.brokenTest,
    );
    expect(categorise({ status: 'passed', labels: live })).toBeUndefined();
  });
});

test('an exchange reads as an HTTP request and response, JSON bodies indented', () => {
  const exchange = {
    request: { method: 'POST', url: 'https://api.example/v1/1/products?x=1', headers: { authentication: 'bearer [REDACTED]' }, body: '{"name":"a"}' },
    response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":7}' },
  };
  expect(exchangeTitle(exchange)).toBe('POST /v1/1/products?x=1 → 201');
  expect(exchangeText(exchange)).toBe(
    [
      'POST https://api.example/v1/1/products?x=1',
      'authentication: bearer [REDACTED]',
      '',
      '{\n  "name": "a"\n}',
      '',
      'HTTP 201',
      'content-type: application/json',
      '',
      '{\n  "id": 7\n}',
    ].join('\n'),
  );
  expect(exchangeTitle({ request: { method: 'GET', url: 'https://x/y', headers: {} }, error: { code: 'ECONNRESET', message: 'reset' } })).toBe(
    'GET /y → ECONNRESET',
  );
});
