import { chromium, type Browser } from '@playwright/test';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { chromiumLaunchOptions } from '../../../../src/browser/chromium.ts';
import { STORE_RULES } from '../../../../src/rules/storeRules.ts';
import { findRule } from '../../../../src/rules/catalogues.ts';
import { schemaRegistry } from '../../../../src/schemas/schemaRegistry.ts';
import { STORE_TWIN_BREAKS, type StoreTwinBreak } from '../../../../src/twins/store/twinBreaks.ts';
import { startStoreTwin } from '../../../../src/twins/store/server.ts';
import {
  STOREFRONT_VARIANT_SCHEMA,
  callProblems,
  elementProblems,
  expectNoProblems,
  type ElementFinding,
  type RecordedCall,
} from '../../../../suites/fixtures/storefrontChecks.ts';
import { elementOf, findElement, openProductPage, pickAnotherVariant, recordedCalls, registerRecorder } from '../../../../suites/fixtures/storefrontPage.ts';
import { createStore, storeApi } from './twinHttp.ts';

// The storefront suite's checks must be able to fail: fed what a broken storefront does, they say so, naming the rule.

const ON_CHANGE = STORE_RULES['store.storefront.on-change-variant']!;
const ELEMENT = STORE_RULES['store.storefront.variant-element']!;

const variant = (id: number, extra: Record<string, unknown> = {}) => ({ element: `#product_form_${id}`, id, product_id: 1, price: '10.00', ...extra });
const call = (argument: unknown, argumentCount = 1): RecordedCall => ({
  argumentCount,
  argumentType: argument === null ? 'null' : typeof argument,
  ...(argument === undefined ? {} : { argument }),
});
const finding = (extra: Partial<ElementFinding> = {}): ElementFinding => ({
  selector: '#product_form_2',
  found: true,
  holdsForm: true,
  variantIds: ['2'],
  visible: true,
  ...extra,
});

test.describe('on what a page did', () => {
  test('a callback called once per change with one variant object passes', () => {
    expect(callProblems([call(variant(2)), call(variant(3))], 2, ['2', '3'])).toEqual([]);
  });

  test('store.storefront.on-change-variant: missing, extra and argument-less calls are each reported', () => {
    expect(callProblems([], 1)).toEqual(['the callback was called 0 time(s) for 1 variant change(s); expected once per change']);
    expect(callProblems([call(variant(2)), call(variant(2))], 1)[0]).toMatch(/called 2 time\(s\) for 1/);
    expect(callProblems([call(undefined, 0)], 1)).toEqual(['call 1: the callback got 0 argument(s); expected exactly one, the variant object']);
    expect(callProblems([call(variant(2), 2)], 1)).toEqual(['call 1: the callback got 2 argument(s); expected exactly one, the variant object']);
    expect(callProblems([call(variant(3))], 1, ['2'])).toEqual(['call 1: the argument describes variant 3, but the shopper chose 2']);
  });

  test('store.storefront.variant-element: an argument that breaks the schema is reported with every issue, readably', () => {
    const [problem] = callProblems([call({ element: { 0: {} }, id: true, price: [] })], 1);
    expect(problem).toContain(`call 1: the argument breaks ${STOREFRONT_VARIANT_SCHEMA}:`);
    expect(problem).toContain('/element: must be a selector string (not blank) (got object {"0":{}})');
    expect(problem).toContain('/id: must be an id (integer or string) (got boolean true)');
    expect(problem).toContain('/price: must be an amount (decimal string or number) or null (got array [])');
    expect(callProblems([call('red')], 1)[0]).toMatch(/\(root\): must be the variant object .* \(got string "red"\)/);
    expect(callProblems([call(variant(2, { element: ' ' }))], 1)[0]).toMatch(/\/element: must match a selector string \(not blank\)/);
    expect(callProblems([{ argumentCount: 1, argumentType: 'object', copyError: 'TypeError: cyclic' }], 1)).toEqual([
      'call 1: the argument is object that could not be read (TypeError: cyclic), not a variant object',
    ]);
  });

  test("store.storefront.variant-element: a selector that finds nothing, no form, another variant's or a hidden form is reported", () => {
    expect(elementProblems(finding(), { variantId: '2' })).toEqual([]);
    expect(elementProblems(finding({ selectorError: 'SyntaxError: not a valid selector' }))).toEqual([
      '"#product_form_2" is not a selector document.querySelector accepts: SyntaxError: not a valid selector',
    ]);
    expect(elementProblems(finding({ found: false }))).toEqual(['document.querySelector("#product_form_2") finds no element on the page']);
    expect(elementProblems(finding({ holdsForm: false, variantIds: [] }))[0]).toMatch(/neither a form nor holds one/);
    expect(elementProblems(finding({ variantIds: ['3'] }), { variantId: '2' })).toEqual([
      'the form in "#product_form_2" is for variant 3, not for the chosen variant 2',
    ]);
    expect(elementProblems(finding({ visible: false }), { variantId: '2' })[0]).toMatch(/is hidden/);
    // On live nothing is known of the variant ids: a visible form container is enough.
    expect(elementProblems(finding({ variantIds: [], visible: false }))).toEqual([]);
  });

  test('a failed check names the rule and lists every problem', () => {
    expect(() => expectNoProblems(ELEMENT, 'variant.element', ['one', 'two'])).toThrow(
      /\[store\.storefront\.variant-element\] variant\.element:\n {2}- one\n {2}- two/,
    );
  });

  test('the storefront-variant schema names the rules and the spec sections it encodes', () => {
    const description = String(schemaRegistry().entry(STOREFRONT_VARIANT_SCHEMA).schema.description);
    for (const id of description.match(/\bstore\.[a-z0-9-]+\.[a-z0-9-]+/g) ?? []) expect(findRule(id), id).toBeDefined();
    expect(description).toContain('store.storefront.on-change-variant');
    expect(description).toContain('store.storefront.variant-element');
    expect(description).toMatch(/Spec: Storefront script event .* Variant \(storefront script object\)/);
  });
});

test.describe('in chromium, on a twin storefront with a break', () => {
  let browser: Browser | undefined;
  test.beforeAll(async () => {
    // Without a chromium these tests fail, saying how to get one (src/browser/chromium.ts).
    browser = await chromium.launch(await chromiumLaunchOptions());
  });
  test.afterAll(async () => {
    await browser?.close();
  });

  /** Opens a product page of a twin (with the break, if any) and runs the suite's steps and checks on it. */
  async function checkStorefront(twinBreak: StoreTwinBreak | undefined): Promise<{ calls: string[]; element: string[] }> {
    const twin = await startStoreTwin({ ...(twinBreak ? { twinBreak } : {}), onInternalError: () => undefined });
    const page = await browser!.newPage();
    try {
      const store = await createStore(twin.url, { products: 0 });
      const created = await storeApi(store)('/products', { method: 'POST', json: { name: 'Checked', variants: [{ values: ['S'] }, { values: ['M'] }] } });
      await openProductPage(page, `${twin.url}/storefront/${store.storeId}/products/${created.json().id}`, ON_CHANGE);
      await registerRecorder(page, ON_CHANGE);
      const pick = await pickAnotherVariant(page, ON_CHANGE);
      const calls = await recordedCalls(page, 1);
      const element = elementOf(calls[0]);
      return {
        calls: callProblems(calls, 1, [pick.to]),
        element: element === undefined ? ['no element to look up'] : elementProblems(await findElement(page, element), { variantId: pick.to }),
      };
    } finally {
      await page.close();
      await twin.close();
    }
  }

  test('a theme that hides its select behind buttons still gets the variant changed, with a change event', async () => {
    const page = await browser!.newPage();
    try {
      await page.setContent(
        `<select name="variation[0]" style="display:none"><option value="">Pick</option><option value="S">S</option><option value="M" disabled>M</option><option value="L">L</option></select>
         <script>window.changes = []; document.querySelector('select').addEventListener('change', (e) => window.changes.push(e.target.value));</script>`,
      );
      expect(await pickAnotherVariant(page, ON_CHANGE)).toEqual({ selector: 'select[name^="variation"]', from: '', to: 'S' });
      expect(await pickAnotherVariant(page, ON_CHANGE)).toEqual({ selector: 'select[name^="variation"]', from: 'S', to: 'L' });
      expect(await page.evaluate('window.changes')).toEqual(['S', 'L']);
    } finally {
      await page.close();
    }
  });

  test('without a break the checks find nothing', async () => {
    expect(await checkStorefront(undefined)).toEqual({ calls: [], element: [] });
  });

  test(`${STORE_TWIN_BREAKS['storefront-callback-without-variant']}: the call check reports it`, async () => {
    const { calls } = await checkStorefront('storefront-callback-without-variant');
    expect(calls).toEqual(['call 1: the callback got 0 argument(s); expected exactly one, the variant object']);
  });

  test(`${STORE_TWIN_BREAKS['storefront-element-matches-nothing']}: the element check reports it`, async () => {
    const { calls, element } = await checkStorefront('storefront-element-matches-nothing');
    expect(calls).toEqual([]);
    expect(element).toEqual([expect.stringMatching(/^document\.querySelector\("#product-form-\d+"\) finds no element on the page$/)]);
  });
});
