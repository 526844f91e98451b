/**
 * A test's traffic as the report shows it: each request and response as an
 * HTTP message a person reads (method, URL, status, headers, body), already
 * redacted by the clients (src/http/Exchange.ts). A test that sends a few
 * requests gets one attachment each; a long one (paging 10,000 products) one
 * transcript; and always the JSON record for tools.
 */
import type { TestInfo } from '@playwright/test';
import type { Exchange } from '../http/Exchange.ts';

/** Up to this many exchanges are attached one by one; beyond, as one transcript. */
export const ONE_BY_ONE_LIMIT = 10;
/** Bodies longer than this are cut in the readable form (the JSON record keeps them whole). */
export const BODY_LIMIT = 16_000;

type Traffic = Pick<Exchange, 'request' | 'response' | 'error' | 'retry'>;

/** A URL's path and query, or the text itself when it is not a URL. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** `GET /v1/1/products?page=2 → 200` (or `→ ECONNRESET`). */
export function exchangeTitle(exchange: Traffic): string {
  const outcome = exchange.response ? String(exchange.response.status) : (exchange.error?.code ?? 'no answer');
  return `${exchange.request.method} ${pathOf(exchange.request.url)} → ${outcome}`;
}

function readableBody(body: string | undefined): string {
  if (body === undefined || body === '') return '';
  let text = body;
  try {
    text = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    // Not JSON: shown as sent.
  }
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}\n… ${text.length - BODY_LIMIT} more characters (whole body in exchanges.json)` : text;
}

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
}

/** One exchange as two HTTP messages. */
export function exchangeText(exchange: Traffic): string {
  const { request, response, error, retry } = exchange;
  const lines = [`${request.method} ${request.url}`, ...headerLines(request.headers)];
  const sent = readableBody(request.body);
  if (sent) lines.push('', sent);
  lines.push('');
  if (response) {
    lines.push(`HTTP ${response.status}`, ...headerLines(response.headers));
    const got = readableBody(response.body);
    if (got) lines.push('', got);
  } else {
    lines.push(`no response: ${error?.code ?? 'unknown'} ${error?.message ?? ''}`.trimEnd());
  }
  if (retry) lines.push('', `(the client retries after ${retry.afterMs} ms: ${retry.reason})`);
  return lines.join('\n');
}

/** Every exchange, numbered, for a test that sent many. */
export function transcript(exchanges: readonly Traffic[]): string {
  return exchanges.map((exchange, i) => `### ${i + 1}. ${exchangeTitle(exchange)}\n\n${exchangeText(exchange)}`).join('\n\n');
}

/**
 * Adds an attachment to the test's result without a step: `testInfo.attach` is a Playwright step, and
 * every step captures a source-mapped stack; a test's traffic is several attachments, in every API test.
 * Playwright hands a pushed attachment to the reporters (Allure, HTML, JSON) as it does an attached one.
 */
function attachQuietly(testInfo: TestInfo, name: string, body: string, contentType: string): void {
  testInfo.attachments.push({ name, contentType, body: Buffer.from(body) });
}

/** Attaches a test's traffic to its result: readable messages, and the JSON record. */
export function attachExchanges(testInfo: TestInfo, exchanges: readonly Traffic[]): void {
  if (exchanges.length === 0) return;
  if (exchanges.length <= ONE_BY_ONE_LIMIT) {
    for (const [i, exchange] of exchanges.entries()) attachQuietly(testInfo, `HTTP ${i + 1}: ${exchangeTitle(exchange)}`, exchangeText(exchange), 'text/plain');
  } else {
    attachQuietly(testInfo, `HTTP transcript (${exchanges.length} exchanges)`, transcript(exchanges), 'text/plain');
  }
  attachQuietly(testInfo, 'exchanges.json', JSON.stringify(exchanges, null, 2), 'application/json');
}

/** Schema breaches in the words schemaBreaches gives them, one block each. */
export async function attachSchemaErrors(testInfo: TestInfo, breaches: readonly string[]): Promise<void> {
  if (breaches.length === 0) return;
  await testInfo.attach(`schema errors (${breaches.length})`, { body: breaches.join('\n\n'), contentType: 'text/plain' });
}
