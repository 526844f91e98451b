/**
 * The install flow on the store twin's port, under the real paths (field
 * notes, OAuth): the consent page at /apps/{app_id}/authorize and the code
 * exchange at POST /apps/authorize/token, whose token opens the store (store.oauth.install-grants-token).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { discardBody, mediaTypeOf, readBody } from '../../serving/requestBody.ts';
import { parseNumericId, type RequestTarget } from '../../serving/requestTarget.ts';
import { errorBody } from '../errors.ts';
import { writeResponse, type TwinResponse } from '../responses.ts';
import type { StoreState } from '../storeState.ts';
import { writeHtml, type HtmlAnswer } from '../storefront/storefrontRoute.ts';
import type { TwinState } from '../twinState.ts';
import type { TwinApp } from './apps.ts';
import { renderConsentPage, renderRefusalPage } from './consentPage.ts';
import { handleTokenRequest, oauthError } from './tokenEndpoint.ts';

/** First path segment of the install flow: outside /v1, /__twin and /storefront. */
export const INSTALL_PREFIX = 'apps';

export interface InstallDeps {
  readonly twin: TwinState;
  readonly reportInternalError: (error: unknown, request: string) => void;
}

export function isInstallTarget(target: RequestTarget): boolean {
  return target.segments[0] === INSTALL_PREFIX;
}

/**
 * The owner approved: a code for the app, and the app's redirect URL with
 * `code` and the same `state` (store.oauth.authorize-consent). The consent form and the control API both come here.
 */
export function approveInstall(twin: TwinState, app: TwinApp, store: StoreState, state: string | undefined): { code: string; redirect: string } {
  const code = twin.installs.approve(app, store);
  return { code, redirect: withQuery(app.redirectUrl, { code, ...(state ? { state } : {}) }) };
}

function withQuery(url: string, params: Readonly<Record<string, string>>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.href;
}

export async function handleInstallRequest(req: IncomingMessage, res: ServerResponse, target: RequestTarget, deps: InstallDeps): Promise<void> {
  const [, second, third, ...rest] = target.segments;
  const method = req.method ?? 'GET';
  try {
    if (second === 'authorize' && third === 'token' && rest.length === 0) {
      const answer =
        method === 'POST' ? await handleTokenRequest(req, deps.twin) : oauthError(405, 'invalid_request', 'The token endpoint takes POST.', { Allow: 'POST' });
      if (method !== 'POST') await discardBody(req);
      writeResponse(res, method, answer);
    } else if (third === 'authorize' && rest.length === 0) {
      writeHtml(res, method, await consent(req, method, second, target.query, deps.twin));
    } else {
      await discardBody(req);
      writeResponse(res, method, { status: 404, body: errorBody(404, 'The install flow is at /apps/{app_id}/authorize and POST /apps/authorize/token.') });
    }
  } catch (error) {
    deps.reportInternalError(error, `${method} ${req.url}`);
    const answer: TwinResponse = { status: 500, body: errorBody(500) };
    writeResponse(res, method, answer);
  }
}

/** GET shows the consent page; POST (the form) redirects to the app with a code, or with error=access_denied. */
async function consent(req: IncomingMessage, method: string, appSegment: string | undefined, query: URLSearchParams, twin: TwinState): Promise<HtmlAnswer> {
  const app = twin.apps.find(appSegment);
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    await discardBody(req);
    return refusal(405, 'Method Not Allowed', 'The consent page is read with GET and answered with POST.', { Allow: 'GET, HEAD, POST' });
  }
  if (!app) {
    await discardBody(req);
    return refusal(404, 'Not Found', `No app ${appSegment ?? ''} is registered on this twin; GET /__twin/apps lists them.`);
  }
  // An owner picks among the stores the twin serves under their own ids; a pact's copy under another's id is not one.
  const stores = twin.list().filter((store) => store.controlId === store.id);
  if (method !== 'POST') {
    return { status: 200, html: renderConsentPage(app, stores, query.get('state') ?? undefined, parseNumericId(query.get('store_id') ?? undefined)) };
  }
  const form = await readForm(req);
  if (typeof form === 'string') return refusal(400, 'Bad Request', form);
  const state = form.get('state') || undefined;
  if (form.get('decision') === 'deny') {
    return redirect(withQuery(app.redirectUrl, { error: 'access_denied', ...(state ? { state } : {}) }));
  }
  if (form.get('decision') !== 'approve') return refusal(400, 'Bad Request', 'decision must be approve or deny: press one of the buttons.');
  const store = twin.find(form.get('store_id') ?? undefined);
  if (!store) return refusal(400, 'Bad Request', `Store ${form.get('store_id') ?? ''} does not exist on this twin; choose one of the list.`);
  return redirect(approveInstall(twin, app, store, state).redirect);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | string> {
  if (mediaTypeOf(req.headers) !== 'application/x-www-form-urlencoded') return 'The consent form is sent as application/x-www-form-urlencoded.';
  const read = await readBody(req);
  if (read.kind !== 'complete') return 'The form could not be read.';
  return new URLSearchParams(read.bytes.toString('utf8'));
}

function redirect(location: string): HtmlAnswer {
  return { status: 302, html: renderRefusalPage('Redirecting', `Back to ${location}`), headers: { Location: location } };
}

function refusal(status: number, title: string, message: string, headers?: Readonly<Record<string, string>>): HtmlAnswer {
  return { status, html: renderRefusalPage(`${status} ${title}`, message), ...(headers ? { headers } : {}) };
}
