import { expect, test } from '../../../src/testing/harnessTest.ts';
import { loadConfig } from '../../../src/config/harnessConfig.ts';
import { LIVE_ENV, problemsOf } from './configEnv.ts';

const live = LIVE_ENV;

test('STOREFRONT_URL is read on live and left undefined when unset', () => {
  expect(loadConfig(live).store.storefrontUrl).toBeUndefined();
  expect(loadConfig({ ...live, STOREFRONT_URL: ' https://shop.mitiendanube.com/productos/remera/ ' }).store.storefrontUrl).toBe(
    'https://shop.mitiendanube.com/productos/remera/',
  );
  expect(loadConfig({ ...live, STOREFRONT_URL: 'http://127.0.0.1:4010/storefront/1/products/2' }).store.storefrontUrl).toBe(
    'http://127.0.0.1:4010/storefront/1/products/2',
  );
  // The twin serves its own storefront.
  expect(loadConfig({ STOREFRONT_URL: 'https://shop.example/productos/x/' }).store.storefrontUrl).toBeUndefined();
});

test('a STOREFRONT_URL that is not an http(s) URL names the variable and the fix', () => {
  for (const bad of ['shop.mitiendanube.com/productos/x', 'ftp://shop.example/x']) {
    expect(problemsOf({ ...live, STOREFRONT_URL: bad }), bad).toEqual([
      expect.stringMatching(/^STOREFRONT_URL is ".*", not an http\(s\) URL\. Set it to a product page of the store with at least two variants/),
    ]);
  }
});

test('a STOREFRONT_URL with credentials is refused without printing them', () => {
  const [problem] = problemsOf({ ...live, STOREFRONT_URL: 'https://user:s3cr3t@shop.example/x' });
  expect(problem).toMatch(/^STOREFRONT_URL carries credentials in the URL\. Remove them/);
  expect(problem).not.toContain('s3cr3t');
});
