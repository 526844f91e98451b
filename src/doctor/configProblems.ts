/**
 * The checklist lines of a configuration loadConfig refused: one problem per
 * message of the ConfigError, filed under the API and the check it is about.
 * Each message already names the variable and the fix (src/config), and none
 * holds a secret.
 */
import type { ConfigError } from '../config/ConfigError.ts';
import { problem, type Check, type CheckScope } from './Check.ts';

export function configProblems(error: ConfigError): Check[] {
  return error.problems.map((message) => {
    const [scope, name] = placeOf(message);
    // Each message says what is wrong and then how to fix it: it is the whole line.
    return problem(scope, name, message);
  });
}

/** The API and check a message is about, by the variable it starts with or names. */
function placeOf(message: string): [CheckScope, string] {
  if (/\bLIVE_STORE_ALLOWLIST\b/.test(message)) return ['store', 'allow-list'];
  if (/^STOREFRONT_URL\b/.test(message)) return ['store', 'variables'];
  if (/^STORE_\w+/.test(message)) return ['store', 'variables'];
  if (/^KITSU_\w+/.test(message)) return ['media', 'variables'];
  if (/^LIVE_REQUEST_BUDGET\b/.test(message)) return ['run', 'request budget'];
  return ['run', 'variables'];
}
