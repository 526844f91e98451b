/**
 * A rule's code is found from its id: every contract and reliance rule a twin
 * implements is cited by id in a comment of its own twin, where the twin does
 * it (as src/twins/store/apiPipeline.ts cites each step). The few contract and
 * reliance rules no twin implements are listed below, each with why; a list
 * that names a rule the twins do cite, or no rule at all, fails too. So does a
 * comment that cites an id the catalogue does not have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { CATALOGUES, findRule, type RuleId } from '../../../src/rules/catalogues.ts';
import { failsOnEveryTarget, ruleKind } from '../../../src/rules/Rule.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const TWINS = join(ROOT, 'src/twins');

/**
 * Contract and reliance rules that say what a client does with an answer, not
 * what a provider answers: a twin serves the answer (under the rule named in
 * the reason) but has nothing of its own to implement.
 */
const NOT_IMPLEMENTED_BY_TWINS: Readonly<Partial<Record<RuleId, string>>> = {
  'store.client.payment-required-message': "what the typed client tells its user on a 402; the twin's 402 is store.suspension.every-call-402",
  'store.client.validation-error-fields': "what the typed client makes of a 422; the twin's 422 is store.errors.validation-422",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The comments of a TypeScript file, from its syntax tree: ids in strings (twin break descriptions, messages) are not citations. */
function commentsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const seen = new Set<number>();
  const comments: string[] = [];
  const collect = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      comments.push(text.slice(range.pos, range.end));
    }
  };
  // Every token, punctuation included, so a comment before a closing brace is read too.
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return comments;
}

/** Whatever reads as `<api>.<area>.<rule>` in a comment, for an api with a catalogue. */
const CITATION = new RegExp(`\\b(?:${Object.keys(CATALOGUES).join('|')})\\.[a-z]+\\.[a-z0-9-]+`, 'g');

/** Each file under src/twins/ (relative to the repository) and the ids its comments cite. */
const CITATIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  sourceFiles(TWINS).map((file) => [relative(ROOT, file), new Set(commentsOf(file).flatMap((comment) => comment.match(CITATION) ?? []))]),
);

/** The files that cite `id`. */
function citing(id: string): string[] {
  return [...CITATIONS].filter(([, ids]) => ids.has(id)).map(([file]) => file);
}

/** A rule is cited by its own twin (src/twins/<api>/) or by what the twins share, never by the other twin alone. */
function citedByItsTwin(id: string): boolean {
  const api = id.split('.')[0]!;
  const otherTwins = Object.keys(CATALOGUES)
    .filter((other) => other !== api)
    .map((other) => `src/twins/${other}/`);
  return citing(id).some((file) => !otherTwins.some((folder) => file.startsWith(folder)));
}

const contractAndReliance = Object.values(CATALOGUES).flatMap((catalogue) => Object.values(catalogue).filter(failsOnEveryTarget));

test('every contract and reliance rule the twins implement is cited by id in a comment of its twin', () => {
  expect(contractAndReliance.length).toBeGreaterThan(60);
  const uncited = contractAndReliance.filter((rule) => !Object.hasOwn(NOT_IMPLEMENTED_BY_TWINS, rule.id) && !citedByItsTwin(rule.id)).map((rule) => rule.id);
  expect(
    uncited,
    'contract and reliance rules no comment of their twin cites: cite each where the twin does it (// <rule id>: why), ' +
      'or, if no twin implements it, list it in NOT_IMPLEMENTED_BY_TWINS with the reason',
  ).toEqual([]);
});

test('the rules listed as not implemented by the twins are contract or reliance rules, with a reason, and cited nowhere under src/twins/', () => {
  const problems = Object.entries(NOT_IMPLEMENTED_BY_TWINS).flatMap(([id, reason]) => {
    const rule = findRule(id);
    if (!rule) return [`${id}: no rule of the catalogue has this id`];
    if (!failsOnEveryTarget(rule)) return [`${id}: a ${ruleKind(rule)} rule; the list is for contract and reliance rules`];
    if (!reason?.trim()) return [`${id}: no reason given`];
    const files = citing(id);
    return files.length > 0 ? [`${id}: cited in ${files.join(', ')}, so a twin implements it; take it off the list`] : [];
  });
  expect(problems).toEqual([]);
});

test('every rule id a comment under src/twins/ cites is a rule of the catalogue', () => {
  // Only ids in an area the catalogues have: `media.twin.test` in a URL, or `store.clock.now()`, is not a citation.
  const areas = new Set(Object.values(CATALOGUES).flatMap((catalogue) => Object.keys(catalogue).map((id) => id.split('.').slice(0, 2).join('.'))));
  const unknown = [...CITATIONS].flatMap(([file, ids]) =>
    [...ids].filter((id) => areas.has(id.split('.').slice(0, 2).join('.')) && !findRule(id)).map((id) => `${file}: ${id}`),
  );
  expect(unknown, 'rule ids twin comments cite that no catalogue has (renamed or misspelt?)').toEqual([]);
});
