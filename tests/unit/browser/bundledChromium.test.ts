/**
 * The real thing: on Linux x64, with no CHROMIUM_PATH and nothing on PATH, the
 * harness unpacks the chromium @sparticuz/chromium ships and Playwright
 * launches it and renders a page. Runs on machines that have a system chromium
 * too: the host it resolves for has an empty PATH.
 */
import { chromium } from '@playwright/test';
import { relative, resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { chooseChromium, chromiumLaunchOptions, currentHost, type ChromiumHost } from '../../../src/browser/chromium.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const bare: ChromiumHost = { ...currentHost(), env: { ...process.env, CHROMIUM_PATH: '', PATH: '' } };

/** Width and height from a PNG's IHDR. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

test('the bundled chromium launches under Playwright and renders a page', async ({}, testInfo) => {
  test.skip(process.platform !== 'linux' || process.arch !== 'x64', '@sparticuz/chromium ships a chromium for Linux x64 only');
  expect(chooseChromium(bare)).toEqual({ source: 'bundled' });

  const options = await chromiumLaunchOptions(bare);
  // Unpacked once per install, beside the package, not in a /tmp shared with every other checkout.
  expect(relative(ROOT, options.executablePath!)).toMatch(/^node_modules\/\.cache\/sparticuz-chromium\/[\d.]+\/chromium$/);

  const began = Date.now();
  const browser = await chromium.launch(options);
  const launchMs = Date.now() - began;
  testInfo.annotations.push({ type: 'launch', description: `${browser.version()} in ${launchMs} ms` });
  try {
    const page = await browser.newPage({ viewport: { width: 320, height: 200 } });
    expect(await page.evaluate(() => navigator.userAgent)).toContain('HeadlessChrome/');
    await page.setContent('<body style="margin:0"><h1 id="title" style="font:32px sans-serif">Rendered</h1></body>');
    await expect(page.locator('#title')).toHaveText('Rendered');
    expect((await page.locator('#title').boundingBox())?.width).toBeGreaterThan(0);
    // Pixels, not only a DOM: two colours give two pictures of the viewport's size.
    const painted = async (colour: string) => {
      await page.setContent(`<body style="margin:0;background:${colour}"></body>`);
      return page.screenshot();
    };
    const red = await painted('red');
    const blue = await painted('blue');
    expect(pngSize(red)).toEqual({ width: 320, height: 200 });
    expect(red.equals(blue)).toBe(false);
  } finally {
    await browser.close();
  }
});
