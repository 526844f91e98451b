/**
 * node:http as CommonJS loads it. An ES import of node:http reads every export it has, and three of them (WebSocket,
 * CloseEvent, MessageEvent) are getters that load Node's own copy of undici: about 50 ms of CPU in every process that
 * imports it, and that copy then sets its Agent as the global dispatcher, so the harness's requests went through
 * Node's undici instead of the undici it depends on (docs/dependencies.md). Types still come from node:http itself.
 */
import { createRequire } from 'node:module';
import type * as Http from 'node:http';

const http = createRequire(import.meta.url)('node:http') as typeof Http;

export const { createServer, request, STATUS_CODES } = http;
