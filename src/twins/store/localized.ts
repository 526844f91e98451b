/**
 * Localized properties (name, description, handle, attribute and variant
 * values): stored per language, answered as an object with one key per store
 * language, written as a plain string or as an object keyed by language.
 */

/** A localized value as stored: language code to text, for the store's languages only. */
export type LocalizedText = Readonly<Record<string, string>>;

/** A validated write: the languages it sets (a plain string sets all of them). */
export type LocalizedWrite = Readonly<Record<string, string>>;

export type LocalizedParse = { readonly ok: true; readonly write: LocalizedWrite } | { readonly ok: false; readonly message: string };

/**
 * Validates a write (store.localized.string-applies-to-all,
 * store.localized.object-per-language, store.localized.unknown-language-422).
 * The message goes under the field's name in a 422 body.
 */
export function parseLocalizedWrite(input: unknown, languages: readonly string[]): LocalizedParse {
  if (typeof input === 'string') {
    return { ok: true, write: Object.fromEntries(languages.map((language) => [language, input])) };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, message: 'must be a string or an object of strings keyed by language code' };
  }
  const write: Record<string, string> = {};
  for (const [code, value] of Object.entries(input)) {
    if (!languages.includes(code)) return { ok: false, message: `language '${code}' is not active in this store` };
    if (typeof value !== 'string') return { ok: false, message: `value for language '${code}' must be a string` };
    write[code] = value;
  }
  return { ok: true, write };
}

/** Applies a write over the current value: named languages change, the others stay (or are "" when new). */
export function applyLocalizedWrite(current: LocalizedText | undefined, write: LocalizedWrite, languages: readonly string[]): LocalizedText {
  const next: Record<string, string> = {};
  for (const language of languages) {
    next[language] = valueIn(write, language) ?? valueIn(current, language) ?? '';
  }
  return next;
}

/**
 * A handle after a write: written languages are slugified (a blank one falls
 * back to the name's slug), the others keep their handle, or get the name's
 * slug when there is none yet.
 */
export function applyHandleWrite(
  current: LocalizedText | undefined,
  write: LocalizedWrite | undefined,
  name: LocalizedText,
  languages: readonly string[],
): LocalizedText {
  const handle: Record<string, string> = {};
  for (const language of languages) {
    const written = write !== undefined ? valueIn(write, language) : undefined;
    const fromName = (): string => slugify(valueIn(name, language) ?? '');
    if (written !== undefined) handle[language] = slugify(written) || fromName();
    else handle[language] = valueIn(current, language) ?? fromName();
  }
  return handle;
}

/** The response form (store.localized.always-object): exactly one key per store language, missing ones "". */
export function renderLocalized(value: LocalizedText, languages: readonly string[]): Record<string, string> {
  const rendered: Record<string, string> = {};
  for (const language of languages) rendered[language] = valueIn(value, language) ?? '';
  return rendered;
}

/** Blank means every value the write gives is empty or whitespace (or it gives none). */
export function isBlankWrite(write: LocalizedWrite): boolean {
  return Object.values(write).every((value) => value.trim() === '');
}

/** A URL-style slug: accents dropped, lower case, runs of anything else turned into one dash. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A handle from a name, per language. */
export function slugifyLocalized(name: LocalizedText, languages: readonly string[]): LocalizedText {
  const handle: Record<string, string> = {};
  for (const language of languages) handle[language] = slugify(valueIn(name, language) ?? '');
  return handle;
}

function valueIn(value: LocalizedText | undefined, language: string): string | undefined {
  return value !== undefined && Object.hasOwn(value, language) ? value[language] : undefined;
}
