/**
 * What a test's page in the built Allure report (reports/allure-report/data/test-results/<id>.json) shows as text,
 * and the markup a reader would have to decode in it: an HTML comment, an entity shown as itself, a code fence, a
 * Markdown escape or emphasis left as characters, a terminal colour code.
 */

/** One built test result, as far as its page shows it. */
export interface BuiltResult {
  readonly name?: string;
  readonly status?: string;
  readonly descriptionHtml?: string;
  readonly error?: { readonly message?: string };
  readonly steps?: readonly BuiltStep[];
}

interface BuiltStep {
  readonly type?: string;
  readonly name?: string;
  readonly link?: { readonly name?: string };
  readonly steps?: readonly BuiltStep[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** HTML as the browser shows it: tags dropped, entities read once. */
export function htmlText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity: string, code: string) => {
    if (code.startsWith('#x') || code.startsWith('#X')) return String.fromCodePoint(parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
    return ENTITIES[code.toLowerCase()] ?? entity;
  });
}

/** Each piece of text the page shows: the description (rendered), the status message, step titles, attachments' titles. */
export function pageTexts(result: BuiltResult): { where: string; text: string; rendered: boolean }[] {
  const texts: { where: string; text: string; rendered: boolean }[] = [];
  if (result.descriptionHtml) texts.push({ where: 'description', text: htmlText(result.descriptionHtml), rendered: true });
  if (result.error?.message) texts.push({ where: 'status message', text: result.error.message, rendered: false });
  const walk = (steps: readonly BuiltStep[] | undefined) => {
    for (const step of steps ?? []) {
      if (step.type === 'attachment') texts.push({ where: 'attachment title', text: step.link?.name ?? '', rendered: false });
      else texts.push({ where: 'step', text: step.name ?? '', rendered: false });
      walk(step.steps);
    }
  };
  walk(result.steps);
  return texts;
}

const SHOWN_AS_TEXT: readonly [RegExp, string][] = [
  [/<!--/, 'an HTML comment'],
  // `<p>`, `</p>`, `<a href="…">`; a placeholder in angle brackets (`<a product page>`) is no tag.
  [/<\/[a-z][a-z0-9]*>|<[a-z][a-z0-9]*\s*\/?>|<[a-z][a-z0-9]*\s[^<>]*=[^<>]*>/i, 'an HTML tag'],
  [/&(?:lt|gt|amp|quot|#\d+);/, 'an HTML entity'],
  [/```/, 'a code fence'],
  // eslint-disable-next-line no-control-regex
  [/\u001b\[/, 'a terminal colour code'],
  [/\\[\\`*_[\]{}<>()#+!|~&]/, 'a Markdown escape'],
];

/** Where Markdown was rendered, any of its markup still showing means it was not. */
const LEFT_OVER_MARKDOWN: readonly [RegExp, string][] = [
  [/`/, 'a backtick'],
  [/\*\*|__/, 'Markdown emphasis'],
  [/^#{1,6} /m, 'a Markdown heading'],
];

/** `description: an HTML comment in “…<!-- x -->…”`, for each piece of text that shows markup. */
export function markupShown(result: BuiltResult): string[] {
  const problems: string[] = [];
  for (const { where, text, rendered } of pageTexts(result)) {
    for (const [pattern, what] of rendered ? [...SHOWN_AS_TEXT, ...LEFT_OVER_MARKDOWN] : SHOWN_AS_TEXT) {
      const at = pattern.exec(text);
      if (at) problems.push(`${result.name}: ${where} shows ${what} as text: “${text.slice(Math.max(0, at.index - 40), at.index + 40)}”`);
    }
  }
  return problems;
}
