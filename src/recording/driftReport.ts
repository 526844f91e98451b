/**
 * The drift report as people read it: Markdown (a summary table by API, then
 * every contract break and every observation with its route, test and rule)
 * beside the JSON, both under reports/drift/ and attached to the Allure report
 * as one result named "drift report" (failed when anything breaks the contract).
 */
import { TARGET_LABEL } from '../reporting/allureMeta.ts';
import { FINDING_LABEL } from '../reporting/findings.ts';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CassetteDrift, DriftFinding, DriftReport, FindingKind } from './drift.ts';

export const DRIFT_REPORT_DIR = 'reports/drift';
export const ALLURE_RESULTS_DIR = 'reports/allure-results';
const MARKDOWN_VALUE = 80;

/** Inline code that survives backticks and pipes in the value (tables, values from the service). */
function code(text: string, max = MARKDOWN_VALUE): string {
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  const clean = short.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  return clean.includes('`') ? `\`\` ${clean} \`\`` : `\`${clean}\``;
}

function plain(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/([\\*_[\]<>|])/g, '\\$1');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One line per finding: the route, what changed, and (indented) the rule it breaks. */
function findingLines(f: DriftFinding): string[] {
  const where = f.route ? `${code(f.route, Infinity)}${f.interaction ? ` (#${f.interaction})` : ''}: ` : '';
  const subject = f.subject ? `${f.change.startsWith('header') ? 'header' : f.change === 'schema' ? 'at' : 'field'} ${code(f.subject, Infinity)} ` : '';
  const what = describe(f);
  const lines = [`- ${where}${subject}${what}${f.note ? ` — ${plain(f.note)}` : ''}`];
  if (f.rule) for (const line of f.rule.split('\n')) lines.push(`  - rule: ${plain(line)}`);
  return lines;
}

function describe(f: DriftFinding): string {
  const stored = f.stored === undefined ? '' : code(f.stored);
  const fresh = f.fresh === undefined ? '' : code(f.fresh);
  switch (f.change) {
    case 'status':
      return `status ${stored} → ${fresh}`;
    case 'header-added':
    case 'field-added':
      return `added: ${fresh}`;
    case 'header-removed':
    case 'field-removed':
      return `removed (was ${stored})`;
    case 'header-changed':
    case 'field-value':
      return `changed: ${stored} → ${fresh}`;
    case 'field-type':
      return `changed type: ${stored} → ${fresh}`;
    case 'schema':
      return 'breaks the schema of its route';
    default:
      return plain(f.message);
  }
}

function cassetteHeading(c: CassetteDrift): string {
  const presence = c.presence === 'both' ? '' : c.presence === 'fresh-only' ? ' (recorded afresh only)' : ' (stored only)';
  return `#### ${plain(c.test)}${presence}\n\nSuite ${code(c.suite)}, cassette ${code(c.file, Infinity)}`;
}

function section(report: DriftReport, kind: FindingKind): string[] {
  const lines: string[] = [];
  for (const api of report.apis) {
    const cassettes = api.cassettes.map((c) => ({ c, findings: c.findings.filter((f) => f.kind === kind) })).filter((x) => x.findings.length > 0);
    if (cassettes.length === 0) continue;
    lines.push(`### ${api.api}`, '');
    for (const { c, findings } of cassettes) lines.push(cassetteHeading(c), '', ...findings.flatMap(findingLines), '');
  }
  return lines.length > 0 ? lines : ['None.', ''];
}

/**
 * drift.md. One literal, kept whole: it is the document top to bottom (summary, table, sections), and its parts
 * with logic of their own (section, findingLines, cassetteHeading) are named above.
 */
export function renderDriftMarkdown(report: DriftReport): string {
  const lines = [
    '# Drift report',
    '',
    `Stored recordings ${code(report.storedRoot, Infinity)} compared with the fresh recording ${code(report.freshRoot, Infinity)} on ${report.generatedAt}, ` +
      'both normalised by contracts/<api>/normalisation.json (what changes on every run is no difference).' +
      (report.freshOnly ? ' The fresh recording was filtered: only the tests it holds were compared.' : ''),
    '',
    `**${plural(report.contractBreaks, 'contract break')}, ${plural(report.observations, 'observation')}.** ` +
      'A contract break: a fresh answer breaks its route’s JSON Schema, a contract header was lost, or a status moved to another class. Everything else is an observation.',
    '',
    '| API | Compared | Only stored | Only fresh | Contract breaks | Observations |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...report.apis.map((a) => {
      const storedOnly = a.cassettes.filter((c) => c.presence === 'stored-only').length;
      const freshOnly = a.cassettes.filter((c) => c.presence === 'fresh-only').length;
      return `| ${a.api} | ${a.compared} | ${storedOnly} | ${freshOnly} | ${a.contractBreaks} | ${a.observations} |`;
    }),
    '',
    '## Contract breaks',
    '',
    ...section(report, 'contract-break'),
    '## Observations',
    '',
    ...section(report, 'observation'),
    '## Stored recordings that break the contract',
    '',
    'Each is a finding about the service as it answered when recorded.',
    '',
    ...(report.storedBreaches.length === 0
      ? ['None.', '']
      : report.storedBreaches.flatMap((b) => {
          const [head = '', ...issues] = b.message.split('\n');
          return [`- ${code(b.file, Infinity)} #${b.interaction}, ${plain(b.test)}: ${plain(head)}`, ...issues.map((i) => `  - ${plain(i)}`)];
        })),
  ];
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** One line for a terminal: the counts by API. */
export function driftSummary(report: DriftReport): string {
  const apis = report.apis.map(
    (a) => `${a.api}: ${plural(a.contractBreaks, 'contract break')}, ${plural(a.observations, 'observation')} (${a.compared} compared)`,
  );
  const stored = report.storedBreaches.length > 0 ? `; ${plural(report.storedBreaches.length, 'stored answer')} breaking the contract` : '';
  return `${apis.join('; ')}${stored}`;
}

export interface DriftReportFiles {
  markdown: string;
  json: string;
  allureResult: string;
}

/** Writes drift.md and drift.json under dir, and the Allure result that attaches both. */
export function writeDriftReport(report: DriftReport, dir = DRIFT_REPORT_DIR, allureResultsDir = ALLURE_RESULTS_DIR): DriftReportFiles {
  const markdown = renderDriftMarkdown(report);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  mkdirSync(dir, { recursive: true });
  const files = { markdown: join(dir, 'drift.md'), json: join(dir, 'drift.json') };
  writeFileSync(files.markdown, markdown);
  writeFileSync(files.json, json);
  return { ...files, allureResult: writeAllureResult(report, markdown, json, allureResultsDir) };
}

/**
 * An Allure 2/3 result (what allure-playwright writes): `<uuid>-result.json`
 * naming its attachments, each `<uuid>-attachment.<ext>` in the same directory.
 * Kept in one piece: most of it is the result's literal, read field by field against what allure-playwright writes.
 */
function writeAllureResult(report: DriftReport, markdown: string, json: string, resultsDir: string): string {
  mkdirSync(resultsDir, { recursive: true });
  const uuid = randomUUID();
  const attach = (name: string, type: string, ext: string, body: string) => {
    const source = `${randomUUID()}-attachment.${ext}`;
    writeFileSync(join(resultsDir, source), body);
    return { name, type, source };
  };
  const start = Date.parse(report.generatedAt) || Date.now();
  // The same history id on every run, so Allure shows the drift report's history.
  const historyId = createHash('md5').update('api-contract-harness drift report').digest('hex');
  const failed = report.contractBreaks > 0;
  const result = {
    uuid,
    historyId,
    testCaseId: historyId,
    name: 'drift report',
    fullName: 'drift: stored recordings compared with a fresh recording',
    status: failed ? 'failed' : 'passed',
    statusDetails: {
      message: `${plural(report.contractBreaks, 'contract break')}, ${plural(report.observations, 'observation')}: ${driftSummary(report)}`,
    },
    stage: 'finished',
    steps: [],
    attachments: [attach('drift.md', 'text/markdown', 'md', markdown), attach('drift.json', 'application/json', 'json', json)],
    parameters: [
      { name: 'stored', value: report.storedRoot },
      // The fresh recording is a new directory each run: excluded, so the history of the drift report stays one.
      { name: 'fresh', value: report.freshRoot, excluded: true },
    ],
    labels: [
      { name: 'epic', value: 'Recordings' },
      { name: 'feature', value: 'Drift' },
      { name: 'suite', value: 'drift' },
      { name: 'severity', value: failed ? 'critical' : 'normal' },
      // Sorted by the report's categories (src/reporting/categories.ts): a live observation, or a broken contract.
      { name: TARGET_LABEL, value: 'record' },
      ...(report.observations > 0 && !failed ? [{ name: FINDING_LABEL, value: 'observation' }] : []),
    ],
    links: [],
    start,
    stop: Math.max(start, Date.now()),
  };
  const path = join(resultsDir, `${uuid}-result.json`);
  writeFileSync(path, JSON.stringify(result));
  return path;
}
