/**
 * Playwright's browser-context options as plain values: the defaults
 * @playwright/test derives for them, written once.
 *
 * Why: Playwright derives each option per test from `contextOptions` in a
 * fixture of its own, and sets them all up and tears them down for every test,
 * browser or not (its trace fixture, which every test runs, depends on them).
 * Each set-up and tear-down is a step, and each step captures a source-mapped
 * stack: some 56 per test, about a third of an API test's CPU. An option given
 * as a value is no fixture run and no step. A project's or the config's `use`
 * still overrides any of them; only `use.contextOptions` no longer feeds them
 * (nothing here sets it).
 */
import type { PlaywrightTestOptions } from '@playwright/test';
import { playwrightBaseUrl } from '../config/env.ts';

type ContextOption = keyof Omit<PlaywrightTestOptions, 'contextOptions' | 'actionTimeout' | 'navigationTimeout' | 'testIdAttribute'>;

/** The values @playwright/test gives the options when `contextOptions` is empty (lib/index.js of @playwright/test 1.5x). */
export const CONTEXT_OPTION_DEFAULTS: { [K in ContextOption]: PlaywrightTestOptions[K] } = {
  acceptDownloads: true,
  bypassCSP: false,
  clientCertificates: undefined,
  colorScheme: 'light',
  contrast: 'no-preference',
  deviceScaleFactor: undefined,
  extraHTTPHeaders: undefined,
  forcedColors: 'none',
  geolocation: undefined,
  hasTouch: false,
  httpCredentials: undefined,
  ignoreHTTPSErrors: false,
  isMobile: false,
  javaScriptEnabled: true,
  locale: 'en-US',
  offline: false,
  permissions: undefined,
  proxy: undefined,
  reducedMotion: 'no-preference',
  screen: undefined,
  serviceWorkers: 'allow',
  storageState: undefined,
  timezoneId: undefined,
  userAgent: undefined,
  viewport: { width: 1280, height: 720 },
  baseURL: playwrightBaseUrl(),
};

/** The same, as option fixtures for `test.extend`: `[value, { option: true, box: true }]`. */
export function contextOptionFixtures(): Record<string, [unknown, { option: true; box: true }]> {
  return Object.fromEntries(Object.entries(CONTEXT_OPTION_DEFAULTS).map(([name, value]) => [name, [value, { option: true, box: true }]]));
}
