import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { compareRecordings, type DriftReport } from '../../../src/recording/drift.ts';
import { renderDriftMarkdown, writeDriftReport } from '../../../src/recording/driftReport.ts';
import { CRUD, LIST, PRODUCT, driftTrees, edit, interaction, removeDriftTrees } from './drift/driftTrees.ts';

test.afterAll(removeDriftTrees);

/** A report with a product field renamed (a break and an observation), X-Total-Count dropped (a break) and X-Cache added (an observation). */
function editedReport(): { report: DriftReport; stored: string; dir: string } {
  const { stored, fresh, dir } = driftTrees();
  edit(fresh, CRUD, (c) => {
    const r = interaction(c, 'GET', PRODUCT, 200).response as Record<string, unknown>;
    r.title = r.name;
    delete r.name;
  });
  edit(fresh, LIST, (c) => {
    delete c.interactions[0]!.rawHeaders['x-total-count'];
    c.interactions[0]!.rawHeaders['x-cache'] = 'HIT';
  });
  return { report: compareRecordings(stored, fresh, { now: new Date('2026-01-02T03:04:05Z') }), stored, dir };
}

test('the Markdown names every finding with its route, test and rule', () => {
  const md = renderDriftMarkdown(editedReport().report);
  expect(md).toContain('| store | 2 | 0 | 0 | 2 | 2 |');
  expect(md).toContain('| media | 2 | 0 | 0 | 0 | 0 |');
  const [breaks, observations] = md.split('## Observations');
  expect(breaks).toContain('- `GET /v1/<store>/products/<id:1>` (#2): field `$.name` removed');
  expect(breaks).toContain('rule: store/product: /name: required member is missing');
  expect(breaks).toContain('store.products.crud: read, update and delete one product');
  expect(breaks).toContain('- `GET /v1/<store>/products?per_page=1` (#1): header `x-total-count` removed (was `260`)');
  expect(breaks).toContain('store.versioning.v1-path: the API answers under /v1/{store\\_id}');
  expect(observations).toContain('field `$.title` added');
  expect(observations).toContain('header `x-cache` added: `HIT`');
});

test('the files and the Allure result are written', () => {
  const { report, stored, dir } = editedReport();
  const md = renderDriftMarkdown(report);
  const files = writeDriftReport(report, join(dir, 'drift'), join(dir, 'allure-results'));
  expect(readFileSync(files.markdown, 'utf8')).toBe(md);
  expect(JSON.parse(readFileSync(files.json, 'utf8'))).toEqual(report);
  const result = JSON.parse(readFileSync(files.allureResult, 'utf8')) as {
    name: string;
    status: string;
    labels: { name: string; value: string }[];
    attachments: { name: string; type: string; source: string }[];
  };
  expect(result).toMatchObject({ name: 'drift report', status: 'failed' });
  expect(result.labels).toEqual(
    expect.arrayContaining([
      { name: 'epic', value: 'Recordings' },
      { name: 'feature', value: 'Drift' },
    ]),
  );
  expect(result.attachments.map((a) => [a.name, a.type])).toEqual([
    ['drift.md', 'text/markdown'],
    ['drift.json', 'application/json'],
  ]);
  expect(result.attachments[0]!.source).toMatch(/^[0-9a-f-]{36}-attachment\.md$/);
  expect(readFileSync(join(dir, 'allure-results', result.attachments[0]!.source), 'utf8')).toBe(md);

  const clean = writeDriftReport(compareRecordings(stored, stored), join(dir, 'drift'), join(dir, 'allure-results'));
  expect(JSON.parse(readFileSync(clean.allureResult, 'utf8'))).toMatchObject({ status: 'passed' });
});
