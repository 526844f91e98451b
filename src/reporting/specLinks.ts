/**
 * Links from a report to the section of the spec a rule comes from. The specs
 * live beside the repository (../shared/specs); HARNESS_SPEC_BASE_URL points
 * the links elsewhere (e.g. the folder on a Git host) for reports read on
 * another machine.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Rule } from '../rules/Rule.ts';
import { processEnv } from '../config/env.ts';

/** The contract and the field notes of each API, by the prefix of its rule ids. */
export const SPEC_FILES: Readonly<Record<string, { spec: string; fieldNotes: string }>> = {
  store: { spec: 'store-commerce-api.md', fieldNotes: 'store-commerce-api.field-notes.md' },
  media: { spec: 'media-tracking-api.md', fieldNotes: 'media-tracking-api.field-notes.md' },
};

/** The anchor a Markdown renderer (GitHub's) gives a heading. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The folder that holds the specs, beside the repository. */
export const SPECS_DIR = resolve(import.meta.dirname, '../../../shared/specs');

function specBaseUrl(env: NodeJS.ProcessEnv): string {
  const configured = env.HARNESS_SPEC_BASE_URL?.trim();
  if (configured) return configured.endsWith('/') ? configured : `${configured}/`;
  return `${pathToFileURL(SPECS_DIR).href}/`;
}

const headingCache = new Map<string, readonly string[]>();

/** The headings of a spec document, without their `#`s; none when it cannot be read. */
export function headingsOf(file: string): readonly string[] {
  let headings = headingCache.get(file);
  if (!headings) {
    let text = '';
    try {
      text = readFileSync(join(SPECS_DIR, file), 'utf8');
    } catch {
      // Not on this machine: links fall back to the document the rule's source names.
    }
    headings = text
      .split('\n')
      .filter((line) => /^#{1,6}\s/.test(line))
      .map((line) => line.replace(/^#+\s*/, '').trim());
    headingCache.set(file, headings);
  }
  return headings;
}

/**
 * The document that holds the rule's section: the one its source names when
 * the heading is there (the contract for `spec`, the field notes otherwise),
 * else the other one.
 */
export function ruleSpecFile(rule: Rule): string {
  const api = rule.id.split('.')[0]!;
  const files = SPEC_FILES[api];
  if (!files) throw new Error(`specLinks: no spec file for the rules of "${api}" (rule ${rule.id}); add it to SPEC_FILES.`);
  const [first, second] = rule.source === 'field-notes' || rule.source === 'reliance' ? [files.fieldNotes, files.spec] : [files.spec, files.fieldNotes];
  return !headingsOf(first).includes(rule.section) && headingsOf(second).includes(rule.section) ? second : first;
}

/** The URL of the rule's section, named for the report. */
export function ruleSpecLink(rule: Rule, env: NodeJS.ProcessEnv = processEnv()): { name: string; url: string } {
  const file = ruleSpecFile(rule);
  const where = file.includes('field-notes') ? 'field notes' : 'spec';
  return { name: `${where}: ${rule.section}`, url: `${specBaseUrl(env)}${file}#${headingAnchor(rule.section)}` };
}
