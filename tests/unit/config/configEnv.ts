/** The environment of a valid live run, and the problems loadConfig finds in one: shared by the config tests. */
import { expect } from '../../../src/testing/harnessTest.ts';
import { loadConfig } from '../../../src/config/harnessConfig.ts';
import { ConfigError } from '../../../src/config/ConfigError.ts';

export const LIVE_ENV = {
  HARNESS_TARGET: 'live',
  STORE_ID: '123456',
  LIVE_STORE_ALLOWLIST: '123456',
  STORE_ACCESS_TOKEN: 's3cr3t-token-value',
  STORE_USER_AGENT: 'My app (https://example.com/contact)',
};

/** The problems of an environment loadConfig must refuse; fails when it accepts it. */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}
