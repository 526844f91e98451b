import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeSegment, parseNumericId, type RequestTarget } from '../../serving/requestTarget.ts';
import type { TwinState } from '../twinState.ts';
import { renderMessagePage, renderProductPage } from './productPage.ts';

/** First path segment of the storefront: outside /v1 and /__twin, so no API or control path reaches it. */
export const STOREFRONT_PREFIX = 'storefront';

/** The one page the storefront serves. */
export const PRODUCT_PAGE_PATH = `/${STOREFRONT_PREFIX}/{store_id}/products/{product_id}`;

const ALLOW = 'GET, HEAD';

export interface StorefrontDeps {
  readonly twin: TwinState;
  readonly reportInternalError: (error: unknown, request: string) => void;
}

export interface HtmlAnswer {
  readonly status: number;
  readonly html: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export function isStorefrontTarget(target: RequestTarget): boolean {
  return target.segments[0] === STOREFRONT_PREFIX;
}

/**
 * The twin's storefront: GET /storefront/{store_id}/products/{product_id}.
 * It does not look at the store's access state: storefront scripts are not
 * included in the API's suspension (store.storefront.works-while-suspended).
 */
export async function handleStorefrontRequest(req: IncomingMessage, res: ServerResponse, target: RequestTarget, deps: StorefrontDeps): Promise<void> {
  let answer: HtmlAnswer;
  try {
    answer = answerFor(req.method ?? 'GET', target.segments.slice(1), deps.twin);
  } catch (error) {
    deps.reportInternalError(error, `${req.method} ${req.url}`);
    answer = refusal(500, 'Internal error', 'The twin failed to render this page; the error is in its log.');
  }
  writeHtml(res, req.method, answer);
}

function refusal(status: number, title: string, message: string, headers?: Readonly<Record<string, string>>): HtmlAnswer {
  return { status, html: renderMessagePage(`${status} ${title}`, message), ...(headers ? { headers } : {}) };
}

function answerFor(method: string, segments: readonly string[], twin: TwinState): HtmlAnswer {
  const [storeSegment, section, productSegment, ...rest] = segments;
  if (storeSegment === undefined || section !== 'products' || productSegment === undefined || rest.length > 0) {
    return refusal(404, 'Not Found', `The twin's storefront serves product pages only, at ${PRODUCT_PAGE_PATH}.`);
  }
  if (method !== 'GET' && method !== 'HEAD') {
    return refusal(405, 'Method Not Allowed', `A product page is read with GET (or HEAD), not ${method}.`, { Allow: ALLOW });
  }
  const storeId = parseNumericId(storeSegment);
  const productId = parseNumericId(productSegment);
  if (storeId === undefined || productId === undefined) {
    const [what, raw] = storeId === undefined ? ['store id', storeSegment] : ['product id', productSegment];
    return refusal(400, 'Bad Request', `"${decodeSegment(raw)}" is not a ${what}: ids are digits, as in ${PRODUCT_PAGE_PATH}.`);
  }
  const store = twin.find(storeSegment);
  if (!store) return refusal(404, 'Not Found', `Store ${storeId} does not exist on this twin; GET /__twin/stores lists the stores.`);
  const product = store.products.get(productId);
  if (!product) return refusal(404, 'Not Found', `Store ${storeId} has no product ${productId}; GET /v1/${storeId}/products lists its products.`);
  // A real storefront does not show unpublished products.
  if (!product.published) return refusal(404, 'Not Found', `Product ${productId} of store ${storeId} is not published, so its page is not shown.`);
  return { status: 200, html: renderProductPage(store, product) };
}

/** HEAD gets the status and headers of GET, without the body. */
export function writeHtml(res: ServerResponse, method: string | undefined, answer: HtmlAnswer): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(answer.html, 'utf8');
  res.writeHead(answer.status, {
    ...answer.headers,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(body.length),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(method === 'HEAD' ? undefined : body);
}
