/**
 * Who a failed rule affects, in the Allure report: on each failed test of that
 * rule (its Allure result, as allure-playwright wrote it: the story label is
 * the rule id, allureMeta.ts), an attachment "consumers affected" and the same
 * list at the end of its description. Written again, it replaces what it wrote
 * before, so the nightly's summary (with the broker's pacts and drift) can
 * refresh what npm run verify wrote.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { affectedMarkdown, type Affected } from './affectedConsumers.ts';

export const AFFECTED_ATTACHMENT = 'consumers affected';
/** Where the list starts in a description: what follows it is replaced on every write. */
export const AFFECTED_MARKER = '<!-- consumers affected -->';

interface AllureResult {
  name?: string;
  status?: string;
  description?: string;
  labels?: { name: string; value: string }[];
  attachments?: { name: string; type: string; source: string }[];
}

const RED = new Set(['failed', 'broken']);

/**
 * Adds the consumers each failed rule affects to that rule's failed results in `resultsDir`; `titles` narrows a
 * rule to the tests that failed (by title) when given; `when` says when the pacts were verified (tonight, in this run). Answers how many results were changed.
 */
export function amendAllureResults(
  resultsDir: string,
  affected: readonly Affected[],
  options: { titles?: ReadonlyMap<string, ReadonlySet<string>>; when?: string } = {},
): number {
  const { titles, when = 'tonight' } = options;
  const byRule = new Map(affected.filter((a) => a.break.kind !== 'drift').map((a) => [a.break.id, a]));
  if (byRule.size === 0 || !existsSync(resultsDir)) return 0;
  let changed = 0;
  for (const name of readdirSync(resultsDir).filter((n) => n.endsWith('-result.json'))) {
    const path = join(resultsDir, name);
    let result: AllureResult;
    try {
      result = JSON.parse(readFileSync(path, 'utf8')) as AllureResult;
    } catch {
      continue;
    }
    if (!RED.has(result.status ?? '')) continue;
    const rules = (result.labels ?? []).filter((l) => l.name === 'story' && byRule.has(l.value)).map((l) => l.value);
    const mine = rules.filter((rule) => !titles?.get(rule) || titles.get(rule)!.has(result.name ?? ''));
    if (mine.length === 0) continue;
    const markdown = affectedMarkdown(
      mine.map((rule) => byRule.get(rule)!),
      '#### Consumers affected',
      when,
    );
    writeFileSync(path, JSON.stringify(withAffected(result, markdown, resultsDir)));
    changed += 1;
  }
  return changed;
}

/** The result with the list attached (replacing an earlier one) and at the end of its description. */
function withAffected(result: AllureResult, markdown: string, resultsDir: string): AllureResult {
  const earlier = result.attachments?.find((a) => a.name === AFFECTED_ATTACHMENT);
  const source = earlier?.source ?? `${randomUUID()}-attachment.md`;
  writeFileSync(join(resultsDir, source), markdown);
  const description = (result.description ?? '').split(AFFECTED_MARKER)[0]!.trimEnd();
  return {
    ...result,
    description: `${description}${description ? '\n\n' : ''}${AFFECTED_MARKER}\n${markdown}`,
    attachments: [...(result.attachments ?? []).filter((a) => a.name !== AFFECTED_ATTACHMENT), { name: AFFECTED_ATTACHMENT, type: 'text/markdown', source }],
  };
}
