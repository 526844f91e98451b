import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { applyHandleWrite, applyLocalizedWrite, isBlankWrite, parseLocalizedWrite, renderLocalized, slugify } from '../../../../src/twins/store/localized.ts';

const languages = ['es', 'pt', 'en'] as const;

test('store.localized.string-applies-to-all: a plain string sets every language', () => {
  expect(parseLocalizedWrite('Poké Balls', languages)).toEqual({ ok: true, write: { es: 'Poké Balls', pt: 'Poké Balls', en: 'Poké Balls' } });
});

test('store.localized.object-per-language: an object sets the languages it names; an update merges', () => {
  const parsed = parseLocalizedWrite({ pt: 'Bola' }, languages);
  expect(parsed).toEqual({ ok: true, write: { pt: 'Bola' } });
  if (!parsed.ok) return;
  expect(applyLocalizedWrite(undefined, parsed.write, languages)).toEqual({ es: '', pt: 'Bola', en: '' });
  expect(applyLocalizedWrite({ es: 'Pelota', pt: 'x', en: 'Ball' }, parsed.write, languages)).toEqual({ es: 'Pelota', pt: 'Bola', en: 'Ball' });
});

test('store.localized.unknown-language-422: a code the store lacks, or a non-string value, is refused with a message', () => {
  expect(parseLocalizedWrite({ es: 'a', fr: 'b' }, languages)).toEqual({ ok: false, message: "language 'fr' is not active in this store" });
  expect(parseLocalizedWrite({ __proto__: 'x' } as unknown, languages).ok).toBe(true); // an object literal's __proto__ sets the prototype: no own key
  expect(parseLocalizedWrite(JSON.parse('{"__proto__":"x"}'), languages)).toEqual({ ok: false, message: "language '__proto__' is not active in this store" });
  expect(parseLocalizedWrite({ es: 3 }, languages)).toEqual({ ok: false, message: "value for language 'es' must be a string" });
  for (const value of [3, true, ['a'], null]) expect(parseLocalizedWrite(value, languages).ok).toBe(false);
});

test('store.localized.always-object: the response has exactly one key per store language, missing ones ""', () => {
  expect(renderLocalized({ pt: 'Bola' }, languages)).toEqual({ es: '', pt: 'Bola', en: '' });
  expect(Object.keys(renderLocalized({ pt: 'Bola', de: 'Ball' }, ['pt']))).toEqual(['pt']);
});

test('blank means empty or whitespace in every language given', () => {
  expect(isBlankWrite({ es: ' ', pt: '' })).toBe(true);
  expect(isBlankWrite({})).toBe(true);
  expect(isBlankWrite({ es: ' ', pt: 'x' })).toBe(false);
});

test('handles are slugified; a missing one comes from the name, a written one is kept on later name changes', () => {
  expect(slugify('Poké Balls')).toBe('poke-balls');
  expect(slugify('  Lámpara de Cerámica: 5!  ')).toBe('lampara-de-ceramica-5');
  const name = { es: 'Pelota Azul', pt: 'Bola Azul', en: 'Blue Ball' };
  expect(applyHandleWrite(undefined, undefined, name, languages)).toEqual({ es: 'pelota-azul', pt: 'bola-azul', en: 'blue-ball' });
  expect(applyHandleWrite({ es: 'old', pt: 'old', en: 'old' }, { es: 'Nuevo Handle', pt: '' }, name, languages)).toEqual({
    es: 'nuevo-handle',
    pt: 'bola-azul',
    en: 'old',
  });
});
