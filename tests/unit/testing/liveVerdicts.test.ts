/**
 * What a verdict means on a real provider: contract and reliance
 * rules fail on every target; a field-notes rule never fails a live, record or
 * replay test, only reports an observation; a contract rule's known defect is tolerated
 * only in exactly its documented form; an unmet precondition skips on live and
 * fails on the twin.
 */
import type { TestInfo } from '@playwright/test';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { CATALOGUES } from '../../../src/rules/catalogues.ts';
import { MEDIA_RULES } from '../../../src/rules/mediaRules.ts';
import type { Rule } from '../../../src/rules/Rule.ts';
import type { Target } from '../../../src/config/harnessConfig.ts';
import { knownDefectSeen, runUnderRule, type RuleContext } from '../../../src/testing/ruleTest.ts';

const ALL_RULES: Rule[] = Object.values(CATALOGUES).flatMap((catalogue) => Object.values(catalogue));
const REAL: Target[] = ['live', 'record', 'replay'];

function fakeInfo(): TestInfo & { annotations: { type: string; description?: string }[] } {
  return { annotations: [], attach: async () => undefined, expectedStatus: 'passed' } as unknown as TestInfo & {
    annotations: { type: string; description?: string }[];
  };
}

/** The rule, made checkable everywhere: the question here is the verdict, not what checking it needs. */
const anywhere = (rule: Rule): Rule => ({ ...rule, needs: 'any', writes: false });
const ctx = (target: Target): RuleContext => ({ target, allowWrites: true, hasToken: true });
const failing = async () => expect(1, 'a difference from the rule').toBe(2);

test('no field-notes assertion can fail a test on a real provider: every field-notes rule, live, record and replay, only reports an observation', async () => {
  const fieldNotes = ALL_RULES.filter((rule) => rule.source === 'field-notes');
  expect(fieldNotes.length).toBeGreaterThan(30);
  for (const rule of fieldNotes) {
    for (const target of REAL) {
      const info = fakeInfo();
      await runUnderRule(anywhere(rule), ctx(target), info, () => undefined, failing);
      expect(
        info.annotations.map((a) => a.type),
        `${rule.id} on ${target}`,
      ).toContain('observation');
    }
    // On the twins the same difference fails: the twin is held to its documented choice.
    await expect(runUnderRule(anywhere(rule), ctx('twin'), fakeInfo(), () => undefined, failing)).rejects.toThrow(/a difference from the rule/);
  }
});

test('contract and reliance rules fail on every target, known defect or not', async () => {
  const hard = ALL_RULES.filter((rule) => rule.source !== 'field-notes');
  expect(hard.some((rule) => rule.source === 'reliance')).toBe(true);
  expect(hard.some((rule) => rule.knownDefect)).toBe(true);
  for (const rule of hard) {
    for (const target of [...REAL, 'twin' as const]) {
      await expect(
        runUnderRule(anywhere(rule), ctx(target), fakeInfo(), () => undefined, failing),
        `${rule.id} on ${target}`,
      ).rejects.toThrow(/a difference from the rule/);
    }
  }
});

test('a known defect is matched exactly: a deprecated relationship kept with links and no marker is an observation on live; dropped, marked wrongly or on the twin it is not', () => {
  const rule = MEDIA_RULES['media.relationships.deprecated-marked']!;
  const asTheRealServiceShowsIt = { links: { self: 'https://x/api/edge/anime/1/relationships/genres', related: 'https://x/api/edge/anime/1/genres' } };
  const info = fakeInfo();
  expect(knownDefectSeen(rule, 'live', asTheRealServiceShowsIt, info, 'anime.genres')).toBe(true);
  expect(info.annotations[0]?.type).toBe('observation');
  expect(knownDefectSeen(rule, 'twin', asTheRealServiceShowsIt, fakeInfo(), 'anime.genres')).toBe(false);
  expect(knownDefectSeen(rule, 'live', undefined, fakeInfo(), 'dropped')).toBe(false);
  expect(knownDefectSeen(rule, 'live', { links: {} }, fakeInfo(), 'no links')).toBe(false);
  expect(knownDefectSeen(rule, 'live', { ...asTheRealServiceShowsIt, meta: { deprecated: false } }, fakeInfo(), 'marked wrongly')).toBe(false);
});

test('the spec’s visibility rules are contract rules; what the typed clients walk by is reliance', () => {
  expect(MEDIA_RULES['media.visibility.adult-hidden-from-lists']!.source).toBe('contract');
  expect(MEDIA_RULES['media.pagination.follow-next']!.source).toBe('reliance');
  expect(MEDIA_RULES['media.pagination.meta-count']!.source).toBe('reliance');
  for (const rule of ALL_RULES.filter((r) => r.source === 'reliance')) expect(rule.reliedOnBy, `${rule.id} says what relies on it`).toBeTruthy();
});

test('provider text is redacted before it reaches a failure or an observation: a token the provider echoed never shows', async () => {
  const secret = 'tok-live-7f3a9c2e5b';
  const echoing = async () => expect(`{"error":"token ${secret} is not valid"}`, 'the 401 body').toBe('{}');
  const contract = { ...ALL_RULES.find((rule) => rule.source === 'contract')!, needs: 'any' as const, writes: false };
  const failure = await runUnderRule(contract, { ...ctx('live'), secrets: [secret] }, fakeInfo(), () => undefined, echoing).catch((e: unknown) => e as Error);
  expect(failure).toBeInstanceOf(Error);
  expect(`${failure!.message}\n${failure!.stack}`).not.toContain(secret);
  expect(failure!.message).toContain('[REDACTED]');
  const fieldNote = anywhere(ALL_RULES.find((rule) => rule.source === 'field-notes')!);
  const info = fakeInfo();
  await runUnderRule(fieldNote, { ...ctx('live'), secrets: [secret] }, info, () => undefined, echoing);
  expect(JSON.stringify(info.annotations)).not.toContain(secret);
});
