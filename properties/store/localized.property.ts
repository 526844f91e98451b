/**
 * Localized input as a model-based property (store.localized.*): for any
 * sequence of product names written to one product (POST, then PUTs), each
 * a plain string (any Unicode, blank, long) or an object over some of the
 * store's languages (sometimes with codes it lacks), the provider must answer
 * what one model, `predictName`, says, and GET must read back what the last
 * write answered. On the twin each case opens a store with a generated
 * language set and main language; on live the configured store is used as it
 * is, what the twin chose where the contract is silent is not asserted, and
 * what rests on the field notes or ASSUMPTIONS is reported as an observation.
 */
import { broken, RuleBroken } from '../../src/testing/ruleTest.ts';
import type { RuleId } from '../../src/rules/catalogues.ts';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { StoreClient } from '../../src/clients/store/StoreClient.ts';
import type { StoreResponse } from '../../src/clients/store/types.ts';
import type { CreateStoreOptions } from '../../src/testing/StoreTwinControl.ts';
import type { ArenaStore, StoreArena } from '../support/storeArena.ts';
import { isObservedOnLive, type ObservationSink } from '../support/observation.ts';
import { scalarText } from '../../src/testing/scalarText.ts';

const RULE = {
  alwaysObject: 'store.localized.always-object',
  string: 'store.localized.string-applies-to-all',
  perLanguage: 'store.localized.object-per-language',
  unknownLanguage: 'store.localized.unknown-language-422',
  blank: 'store.errors.validation-422',
  create: 'store.products.create',
  // What a later read shows is contract: a write's answer is what a read by id answers (create-reflected,
  // update-reflected), and a refused write changes nothing (refused-changes-nothing). Only cleanup is field notes.
  createdReadBack: 'store.writes.create-reflected',
  updatedReadBack: 'store.writes.update-reflected',
  refusedReadBack: 'store.writes.refused-changes-nothing',
  readBack: 'store.products.crud',
} as const;

/** The rules the property checks, for the spec's annotations. */
export const LOCALIZED_RULES: readonly RuleId[] = Object.values(RULE);

export type LocalizedName = Readonly<Record<string, string>>;
export type NameWrite = string | LocalizedName;

/** The languages of the store a case writes to; `preset` only on the twin. */
export interface StoreShape {
  readonly languages: readonly string[];
  readonly mainLanguage: string;
  readonly preset?: CreateStoreOptions['preset'];
}

// --- The model ----------------------------------------------------------------

/** What one language must hold after a write; `value` undefined: any string (the contract does not say). */
export interface LanguageExpectation {
  readonly value: string | undefined;
  readonly why: string;
}

export type Prediction =
  | { readonly accepted: true; readonly rule: RuleId; readonly name: Readonly<Record<string, LanguageExpectation>> }
  | { readonly accepted: false; readonly rule: RuleId; readonly why: string };

/** Blank as ASSUMPTIONS has it: empty or whitespace only (what String.prototype.trim removes). */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/**
 * The model of a localized write: what writing `write` as the name of a
 * product whose name is `current` (undefined: the write creates it) does on a
 * store with `languages`. `twinChoices` asserts what only the twin documents:
 * the languages an object leaves out on create are "".
 */
export function predictName(write: NameWrite, languages: readonly string[], current: LocalizedName | undefined, twinChoices: boolean): Prediction {
  if (typeof write === 'string') {
    if (isBlank(write)) return { accepted: false, rule: RULE.blank, why: 'a blank string is a blank name (ASSUMPTIONS: 422 {"name":["can\'t be blank"]})' };
    const name = Object.fromEntries(languages.map((language) => [language, { value: write, why: 'a plain string applies to every language' }]));
    return { accepted: true, rule: RULE.string, name };
  }
  const unknown = Object.keys(write).filter((code) => !languages.includes(code));
  if (unknown.length > 0) {
    const codes = unknown.map((code) => `'${code}'`).join(', ');
    return { accepted: false, rule: RULE.unknownLanguage, why: `the store (${languages.join(', ')}) lacks ${codes}` };
  }
  if (Object.values(write).every(isBlank)) {
    return { accepted: false, rule: RULE.blank, why: 'every language the object gives is empty or whitespace, so the name is blank (ASSUMPTIONS)' };
  }
  const name: Record<string, LanguageExpectation> = {};
  for (const language of languages) {
    if (Object.hasOwn(write, language)) name[language] = { value: write[language], why: `the object names '${language}'` };
    else if (current !== undefined) name[language] = { value: current[language], why: `the object leaves '${language}' out, so it keeps its value` };
    else if (twinChoices) name[language] = { value: '', why: `the object leaves '${language}' out, and the twin creates it as "" (ASSUMPTIONS)` };
    else name[language] = { value: undefined, why: 'not shown on create' };
  }
  return { accepted: true, rule: RULE.perLanguage, name };
}

// --- Generators -------------------------------------------------------------

const letter = fc.integer({ min: 0x61, max: 0x7a }).map((c) => String.fromCharCode(c));
/** Two-letter codes: mostly real ones (so stores share them), sometimes any pair. */
const languageCode = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('es', 'pt', 'en', 'fr', 'de', 'it') },
  { weight: 1, arbitrary: fc.tuple(letter, letter).map(([a, b]) => a + b) },
);

/** Whitespace both JavaScript's trim and a Unicode White_Space test agree on. */
const blankText = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000'), maxLength: 6 });
/** Graphemes (emoji, combining marks, astral) and raw code points (controls, lone combining marks). */
const shortText = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }), scalarText({ minLength: 1, maxLength: 16 }));

export const nameText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: shortText },
  { weight: 2, arbitrary: blankText },
  { weight: 1, arbitrary: fc.tuple(blankText, shortText, blankText).map(([a, b, c]) => a + b + c) },
  // Long: lengths spread up to 3000 graphemes, yet free to shrink to a short counterexample.
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 3_000, size: 'max' }) },
);

/** An object over any subset of the store's languages, sometimes with codes it lacks. */
function objectWrite(languages: readonly string[]): fc.Arbitrary<LocalizedName> {
  const known = fc.record(Object.fromEntries(languages.map((language) => [language, nameText])), { requiredKeys: [] }) as fc.Arbitrary<LocalizedName>;
  const lacking = fc.dictionary(
    languageCode.filter((code) => !languages.includes(code)),
    nameText,
    { minKeys: 1, maxKeys: 2 },
  );
  return fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: fc.tuple(known, lacking).map(([k, l]) => ({ ...k, ...l })) });
}

export function nameWrite(languages: readonly string[]): fc.Arbitrary<NameWrite> {
  return fc.oneof(nameText, objectWrite(languages));
}

/** Twin stores: one language, or 2-10 with any of them the main one. */
export const twinStoreShape: fc.Arbitrary<StoreShape> = fc.oneof(
  { weight: 1, arbitrary: languageCode.map((code): StoreShape => ({ preset: 'single-language', languages: [code], mainLanguage: code })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.uniqueArray(languageCode, { minLength: 2, maxLength: 10 }), fc.nat())
      .map(([languages, n]): StoreShape => ({ preset: 'multi-language', languages, mainLanguage: languages[n % languages.length]! })),
  },
);

export interface NameCase {
  readonly store: StoreShape;
  readonly writes: readonly NameWrite[];
}

// --- Checks against the provider -------------------------------------------------

/**
 * A rule the provider broke. An observation rests on the field notes or
 * ASSUMPTIONS rather than the contract (a field-notes rule, or a verdict the
 * contract does not decide): on live it is reported, not failed.
 */
function fail(rule: RuleId, detail: string, fromAssumptions = false): never {
  broken(rule, detail, fromAssumptions || isObservedOnLive(rule));
}

/** One write as the checks see it. */
interface Step {
  readonly text: string;
  readonly creating: boolean;
  /** The verdict (accept or refuse) is an ASSUMPTIONS choice: a refusal, an object leaving languages out on create, any PUT. */
  readonly verdictAssumed: boolean;
}

/** A value short enough for a message: long strings cut by code point, with their length. */
function show(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  const points = Array.from(json);
  return points.length <= 90 ? json : `${points.slice(0, 70).join('')}... (${points.length} code points of JSON)`;
}

function bodyOf(res: StoreResponse): unknown {
  try {
    return JSON.parse(res.text);
  } catch {
    return undefined;
  }
}

const isOk = (status: number) => status >= 200 && status < 300;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An accepted write: the answer's name must be an object with one string per language, as predicted. */
function checkAccepted(
  step: Step,
  res: StoreResponse,
  prediction: Extract<Prediction, { accepted: true }>,
  languages: readonly string[],
): Record<string, unknown> {
  if (!isOk(res.status)) fail(prediction.rule, `${step.text} answered ${res.status} ${show(res.text)}; the model accepts the name.`, step.verdictAssumed);
  const body = bodyOf(res);
  if (!isObject(body))
    fail(step.creating ? RULE.create : RULE.updatedReadBack, `${step.text} answered ${res.status} with ${show(res.text)}, not a product object.`);
  const name = body.name;
  const one = languages.length === 1 ? ', even with one language' : '';
  if (!isObject(name))
    fail(RULE.alwaysObject, `${step.text} answered name ${show(name)}: a localized property is always an object keyed by language code${one}.`);
  const missing = languages.filter((language) => !Object.hasOwn(name, language));
  const extra = Object.keys(name).filter((key) => !languages.includes(key));
  if (missing.length > 0 || extra.length > 0) {
    const what = [missing.length ? `no key for ${missing.join(', ')}` : '', extra.length ? `keys the store lacks: ${extra.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
    fail(
      RULE.alwaysObject,
      `${step.text} answered name with keys [${Object.keys(name).join(', ')}]: ${what}; expected exactly the store's languages [${languages.join(', ')}]${one}.`,
    );
  }
  for (const language of languages) {
    const got = name[language];
    if (typeof got !== 'string') fail(RULE.alwaysObject, `${step.text} answered name.${language} = ${show(got)}: each language maps to a string.`);
    const expected = prediction.name[language]!;
    if (expected.value !== undefined && got !== expected.value) {
      fail(prediction.rule, `${step.text} answered name.${language} = ${show(got)}; the model says ${show(expected.value)}: ${expected.why}.`);
    }
  }
  return body;
}

/** A refused write: 422 whose body names the field `name` with messages. */
function checkRejected(step: Step, res: StoreResponse, prediction: Extract<Prediction, { accepted: false }>): void {
  const body = bodyOf(res);
  if (isOk(res.status)) {
    const wrote = isObject(body) ? ` and wrote name ${show(body.name)}` : '';
    fail(prediction.rule, `${step.text} answered ${res.status}${wrote}; the model refuses it with 422: ${prediction.why}.`, true);
  }
  if (res.status !== 422)
    fail(prediction.rule, `${step.text} answered ${res.status} ${show(res.text)}; expected 422 naming the field name: ${prediction.why}.`, true);
  const messages = isObject(body) ? body.name : undefined;
  if (!Array.isArray(messages) || messages.length === 0 || !messages.every((m) => typeof m === 'string')) {
    fail(prediction.rule, `${step.text} answered 422 ${show(res.text)}: the body must name the field, {"name": [messages]} (${prediction.why}).`);
  }
}

/** GET must read back the name the model holds: the last accepted answer (the provider's own word, so `rule` is contract). */
async function checkReadBack(client: StoreClient, id: number, after: string, expected: LocalizedName, rule: RuleId): Promise<void> {
  const res = await client.send({ method: 'GET', path: `/products/${id}` });
  const body = bodyOf(res);
  if (res.status !== 200 || !isObject(body)) fail(rule, `GET /products/${id} after ${after} answered ${res.status} ${show(res.text)}.`);
  if (!isDeepStrictEqual(body.name, expected)) {
    fail(rule, `GET /products/${id} after ${after} answers name ${show(body.name)}; the product's name is ${show(expected)}.`);
  }
}

// --- The property -------------------------------------------------------------------

export interface LocalizedPropertyOptions {
  /** Live: the configured store, whose languages the writes are generated for. */
  readonly live?: ArenaStore;
  /** Live: observations are reported here and end the case (what follows cannot be predicted). */
  readonly observe?: ObservationSink;
  /** Writes per case: the first creates the product, the rest update it. */
  readonly maxWrites?: number;
}

/** Runs one case's writes on one product; the model's state is the name last answered. */
async function runWrites(client: StoreClient, languages: readonly string[], c: NameCase, twinChoices: boolean, created: (id: number) => void): Promise<void> {
  const where = `a store with [${languages.join(', ')}] (main ${c.store.mainLanguage})`;
  let id: number | undefined;
  let current: LocalizedName | undefined;
  for (const [i, write] of c.writes.entries()) {
    const prediction = predictName(write, languages, current, twinChoices);
    const request = id === undefined ? { method: 'POST', path: '/products' } : { method: 'PUT', path: `/products/${id}` };
    const namesAll = typeof write === 'string' || languages.every((language) => Object.hasOwn(write, language));
    const step: Step = {
      text: `write ${i + 1} of ${c.writes.length}, ${request.method} ${request.path} {"name": ${show(write)}} on ${where},`,
      creating: id === undefined,
      // The contract decides only that a create with a non-blank string, or an object naming every language, is accepted.
      verdictAssumed: !(prediction.accepted && id === undefined && namesAll),
    };
    const res = await client.send({ ...request, json: { name: write } });
    const answered = bodyOf(res);
    // Whatever the verdict, a product the provider made is deleted after the case.
    if (id === undefined && isOk(res.status) && isObject(answered) && typeof answered.id === 'number') created(answered.id);
    if (!prediction.accepted) {
      checkRejected(step, res, prediction);
      if (id !== undefined && current !== undefined) await checkReadBack(client, id, `a refused ${request.method}`, current, RULE.refusedReadBack);
      continue;
    }
    const body = checkAccepted(step, res, prediction, languages);
    if (id === undefined) {
      if (typeof body.id !== 'number') fail(RULE.create, `${step.text} answered no numeric id: ${show(body.id)}.`);
      id = body.id;
    }
    current = body.name as LocalizedName;
    await checkReadBack(client, id, `${request.method} ${request.path}`, current, step.creating ? RULE.createdReadBack : RULE.updatedReadBack);
  }
}

export function localizedNameProperty(arena: StoreArena, options: LocalizedPropertyOptions = {}): fc.IAsyncProperty<[NameCase]> {
  const { live, observe } = options;
  const shapes = live ? fc.constant<StoreShape>({ languages: live.languages, mainLanguage: live.mainLanguage }) : twinStoreShape;
  const cases = shapes.chain((store) =>
    fc.record({ store: fc.constant(store), writes: fc.array(nameWrite(store.languages), { minLength: 1, maxLength: options.maxWrites ?? 4 }) }),
  );
  // Live: one paced client for every case, so its pacer follows the store's one bucket from answer to answer.
  const liveClient = live?.client({ pace: true });
  return fc.asyncProperty(cases, async (c) => {
    const store = live ?? (await arena.openTwinStore({ ...c.store, languages: [...c.store.languages], products: 0 }));
    const client = liveClient ?? store.client();
    const ids: number[] = [];
    let failure: unknown;
    try {
      await runWrites(client, store.languages, c, live === undefined, (id) => ids.push(id));
    } catch (error) {
      if (observe && error instanceof RuleBroken && error.observation) observe(error.ruleId, error.detail);
      else failure = error;
    } finally {
      const left = await deleteAll(client, ids);
      await store.close();
      if (failure === undefined && left.length > 0)
        failure = new Error(`[${RULE.readBack}] DELETE did not remove product(s) ${left.join(', ')}; delete them by hand.`);
    }
    if (failure !== undefined) throw failure;
  });
}

/** Deletes what a case created; answers the ids that are still there. */
async function deleteAll(client: StoreClient, ids: readonly number[]): Promise<number[]> {
  const left: number[] = [];
  for (const id of ids) {
    const res = await client.send({ method: 'DELETE', path: `/products/${id}` }).catch(() => undefined);
    if (!res || !isOk(res.status)) left.push(id);
  }
  return left;
}
