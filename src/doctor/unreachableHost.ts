/**
 * The "unreachable host" line: a request that got no HTTP answer at all (the
 * name does not resolve, the connection is refused or times out, TLS fails),
 * told in words, with the variable that names the host as the fix.
 */
import { budgetSpent, isBudgetSpent } from './budgetSpent.ts';
import { problem, type Check, type CheckScope } from './Check.ts';

/** What a network error's code means, for a person. */
function meaningOf(code: string): string {
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve (DNS)';
  if (code === 'ECONNREFUSED') return 'the connection was refused (nothing listens on that port)';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'the connection timed out';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'the host accepted the connection but did not answer in time';
  if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH') return 'there is no route to the host';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return 'the host closed the connection without an answer';
  if (/^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) return 'the TLS handshake failed (certificate or protocol)';
  return 'no answer';
}

/**
 * `variable` names the URL (STORE_API_URL, KITSU_API_URL); `url` is the one
 * tried, already redacted; `code` the network error's code.
 */
export function unreachableHost(scope: CheckScope, variable: string, url: string, code: string): Check {
  if (isBudgetSpent(code)) return budgetSpent(scope, 'host');
  const origin = originOf(url);
  return problem(
    scope,
    'host',
    `unreachable host ${origin}: ${meaningOf(code)} (${code})`,
    `check ${variable} (the host, port and scheme) and that this machine can reach it`,
  );
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
