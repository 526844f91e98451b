import * as http from 'node:http';
import * as https from 'node:https';
import { request as undiciRequest, type Dispatcher } from 'undici';
import { admitOutsideDispatcher } from './outsideAdmission.ts';

/** A request made concrete: what goes on the wire. Each client builds its own. */
export interface WireRequest {
  method: string;
  url: URL;
  /** Every header to send, names as written. */
  headers: Record<string, string>;
  body: string | undefined;
  /** Send with neither Content-Length nor Transfer-Encoding (a bodyless PUT the provider must refuse). */
  omitContentLength?: boolean;
}

/** An answer as it came: status, lower-case headers, body text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * Sends one request and reads the whole answer. Network failures are thrown
 * as they come; the client decides about retries.
 *
 * undici always writes Content-Length: 0 on a bodyless PUT, so the one request
 * that must go without it (store.http.put-without-length-411) takes node:http,
 * which can drop both Content-Length and Transfer-Encoding. That request does
 * not pass through a configured dispatcher.
 */
export async function transport(request: WireRequest, dispatcher?: Dispatcher): Promise<RawResponse> {
  if (request.omitContentLength) {
    // Past undici, so past its interceptors: the dispatcher's guards are asked here instead.
    admitOutsideDispatcher(dispatcher, request.method, request.url.pathname);
    return sendWithoutLength(request);
  }
  const response = await undiciRequest(request.url, {
    method: request.method as Dispatcher.HttpMethod,
    headers: request.headers,
    body: request.body ?? null,
    ...(dispatcher ? { dispatcher } : {}),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: flatten(response.headers), text };
}

function sendWithoutLength(request: WireRequest): Promise<RawResponse> {
  const client = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(request.url, { method: request.method, headers: request.headers });
    req.removeHeader('content-length');
    req.removeHeader('transfer-encoding');
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: flatten(res.headers), text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end();
  });
}

/** Lower-case names, repeated headers joined with ", ". */
function flatten(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
