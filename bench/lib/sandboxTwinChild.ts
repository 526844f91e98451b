/**
 * Child entry: `node bench/lib/sandboxTwinChild.ts <port>` starts one store twin on the plus plan with the real clock
 * on that loopback port, as a team's live sandbox is reached, and reports its URL over IPC. It counts the Store API
 * requests it answers per token, so per bucket of its store (store.ratelimit.per-store-and-token), and answers
 * `count-requests` with them: the bench reads the buckets from the provider's side, not from the harness's own count.
 * Exits when the bench goes away (IPC closes) or on SIGTERM.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { startStoreTwin } from '../../src/twins/store/server.ts';
import { tellBench, type BenchRequest, type RequestCount } from './childMessages.ts';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`usage: node bench/lib/sandboxTwinChild.ts <port>  (got "${process.argv[2] ?? ''}")`);
  process.exit(2);
}

const counts = new Map<string, { answered: number; admitted: number; rateRefused: number; scopeRefused: number }>();
const API_PATH = `/${STORE_CONTRACT.version}/`;
const tokenHeader = STORE_CONTRACT.tokenHeader.toLowerCase();
const RATE_HEADER = /^x-rate-limit-limit:/im;

// Node publishes every answer its HTTP servers finish here: counted without a hook in the twin itself.
subscribe('http.server.response.finish', (message) => {
  const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
  if (!request.url?.startsWith(API_PATH)) return;
  const token = String(request.headers[tokenHeader] ?? '').replace(/^\S+\s+/, '');
  const count = counts.get(token) ?? { answered: 0, admitted: 0, rateRefused: 0, scopeRefused: 0 };
  count.answered += 1;
  // The twin's steps (apiPipeline.ts): the rate headers from the suspension step on; the bucket is the step after it.
  // The twin gives its headers to writeHead, which keeps them only in the head it wrote.
  const head = (response as unknown as { _header?: string })._header ?? '';
  if (RATE_HEADER.test(head) && response.statusCode !== 402 && response.statusCode !== 429) count.admitted += 1;
  if (response.statusCode === 429) count.rateRefused += 1;
  if (response.statusCode === 403) count.scopeRefused += 1;
  counts.set(token, count);
});

const twin = await startStoreTwin({ port, clock: 'real', plan: 'plus' });
tellBench({ type: 'ready', url: twin.url });

process.on('message', (request: BenchRequest) => {
  if (request.type !== 'count-requests') return;
  const { user, system } = process.cpuUsage();
  tellBench({ type: 'requests', byToken: Object.fromEntries(counts) as Record<string, RequestCount>, cpuSeconds: (user + system) / 1e6 });
});

const stop = (): void => void twin.close().finally(() => process.exit(0));
process.once('disconnect', stop);
process.once('SIGTERM', stop);
