/**
 * Who a failed rule affects, written onto the Allure results (src/reporting/affectedAllure.ts): a readable list at
 * the end of the failed test's description, the consumers' label the categories group by, and the front page's
 * summary; written twice, the same as once.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { AFFECTED_HEADING, AFFECTED_LABEL, AFFECTED_OVERVIEW, amendAllureResults, markdownText, NO_CONSUMER } from '../../../src/reporting/affectedAllure.ts';
import type { Affected } from '../../../src/reporting/affectedConsumers.ts';

const RULE = 'store.ratelimit.headers';
const affected: Affected[] = [
  {
    break: { id: RULE, api: 'store', kind: 'contract', summary: '[store.ratelimit.headers] X-Rate-Limit-Remaining cannot exceed X-Rate-Limit-Limit' },
    consumers: [
      {
        consumer: 'store-integration',
        provider: 'store-commerce-api',
        file: 'contracts/pacts/store-integration-store-commerce-api.json',
        interactions: [
          { description: 'a request for the first page of products, 30 per page', uses: ['header X-Rate-Limit-Remaining'], tonight: 'passed' },
          {
            description: 'a product by id',
            uses: ['header X-Rate-Limit-Limit'],
            tonight: 'failed',
            reason: 'Error: expected header <X-Rate-Limit-Limit>\nmore',
          },
        ],
      },
    ],
  },
  { break: { id: 'store.pagination.total-count', api: 'store', kind: 'contract' }, consumers: [] },
];

interface Result {
  name: string;
  status: string;
  description?: string;
  labels: { name: string; value: string }[];
}

function resultsWith(...results: Result[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'affected-allure-'));
  results.forEach((result, i) => writeFileSync(join(dir, `r${i}-result.json`), JSON.stringify(result)));
  return dir;
}

const read = (dir: string, i: number) => JSON.parse(readFileSync(join(dir, `r${i}-result.json`), 'utf8')) as Result;

test("a failed test's description ends with its consumers, readable Markdown with no marker, and writing again replaces it", () => {
  const dir = resultsWith(
    { name: 'headers agree', status: 'failed', description: `**${RULE}**: the headers agree.`, labels: [{ name: 'story', value: RULE }] },
    { name: 'headers agree too', status: 'passed', labels: [{ name: 'story', value: RULE }] },
  );
  try {
    expect(amendAllureResults(dir, affected, { when: 'in this run' })).toBe(1);
    const once = read(dir, 0);
    expect(once.description).toBe(
      [
        `**${RULE}**: the headers agree.`,
        '',
        AFFECTED_HEADING,
        '',
        '- **store-integration**',
        '  - “a request for the first page of products, 30 per page”: passed in this run; uses header X-Rate-Limit-Remaining',
        '  - “a product by id”: failed in this run: expected header \\<X-Rate-Limit-Limit\\>; uses header X-Rate-Limit-Limit',
        '',
      ].join('\n'),
    );
    expect(once.description).not.toContain('<!--');
    expect(once.labels).toContainEqual({ name: AFFECTED_LABEL, value: 'store-integration' });
    // The nightly writes again, with tonight's words: one list, one label.
    amendAllureResults(dir, affected, { when: 'tonight' });
    const twice = read(dir, 0);
    expect(twice.description!.split(AFFECTED_HEADING)).toHaveLength(2);
    expect(twice.description).toContain('passed tonight');
    expect(twice.labels.filter((l) => l.name === AFFECTED_LABEL)).toHaveLength(1);
    expect(read(dir, 1)).not.toHaveProperty('description');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a test of two rules names each rule above its consumers; a rule no consumer uses says so, and its label says none', () => {
  const dir = resultsWith(
    {
      name: 'both',
      status: 'broken',
      labels: [
        { name: 'story', value: RULE },
        { name: 'story', value: 'store.pagination.total-count' },
      ],
    },
    { name: 'count only', status: 'failed', labels: [{ name: 'story', value: 'store.pagination.total-count' }] },
  );
  try {
    amendAllureResults(dir, affected);
    expect(read(dir, 0).description).toMatch(/^#### Consumers affected\n\n\*\*store\.ratelimit\.headers\*\*\n\n- \*\*store-integration\*\*/);
    expect(read(dir, 0).description).toContain("**store.pagination.total-count**\n\nNo consumer's pact uses what this rule covers.");
    expect(read(dir, 1).labels).toContainEqual({ name: AFFECTED_LABEL, value: NO_CONSUMER });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the front page's summary names each consumer with the failed tests that affect it, and goes when none does", () => {
  const dir = resultsWith(
    { name: `${RULE}: on a list`, status: 'failed', labels: [{ name: 'story', value: RULE }] },
    { name: 'a pact test', status: 'failed', labels: [{ name: 'story', value: RULE }] },
  );
  try {
    amendAllureResults(dir, affected);
    const globals = JSON.parse(readFileSync(join(dir, 'consumers-affected-globals.json'), 'utf8')) as {
      attachments: { name: string; source: string; type: string }[];
    };
    expect(globals.attachments).toEqual([expect.objectContaining({ name: AFFECTED_OVERVIEW, type: 'text/markdown' })]);
    const overview = readFileSync(join(dir, globals.attachments[0]!.source), 'utf8');
    expect(overview).toContain('### store-integration\n\n2 failed test(s):\n\n- a pact test (store.ratelimit.headers)\n- store.ratelimit.headers: on a list\n');
    // The rule passes on a later run in the same folder: no failure affects anyone, no summary.
    for (const i of [0, 1]) writeFileSync(join(dir, `r${i}-result.json`), JSON.stringify({ ...read(dir, i), status: 'passed' }));
    amendAllureResults(dir, affected);
    expect(existsSync(join(dir, 'consumers-affected-globals.json'))).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('text in the lists is escaped so Markdown shows it as written', () => {
  expect(markdownText('a <b> *c* `d`\n[e](f)')).toBe('a \\<b\\> \\*c\\* \\`d\\` \\[e\\]\\(f\\)');
});
