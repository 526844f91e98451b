import type { StoreInfo } from './types.ts';

/**
 * The store facts the harness uses, from GET /store. `languages` may come as an
 * array of codes or as an object keyed by code (the real service's shape,
 * `{"es": {"active": true, ...}}`); a language marked `active: false` is left out.
 * The main language falls back to the X-Main-Language header (store.headers.main-language).
 */
export function toStoreInfo(body: unknown, mainLanguageHeader: string | undefined): StoreInfo {
  const record = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const languages = languageCodes(record['languages']);
  const main = record['main_language'];
  return {
    id: typeof record['id'] === 'number' ? record['id'] : undefined,
    mainLanguage: typeof main === 'string' && main ? main : (mainLanguageHeader ?? languages[0] ?? ''),
    languages,
  };
}

function languageCodes(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((entry: unknown) => {
      if (typeof entry === 'string') return [entry];
      const code = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>)['code'] : undefined;
      return typeof code === 'string' ? [code] : [];
    });
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .filter(([, detail]) => !(detail !== null && typeof detail === 'object' && (detail as Record<string, unknown>)['active'] === false))
      .map(([code]) => code);
  }
  return [];
}
