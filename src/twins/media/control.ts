/**
 * The control API under /__twin (no auth, plain JSON): health, reset to the
 * seed, and the clock. Bad input is 400 `{"error": "..."}` naming the field
 * and the fix.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VirtualClock } from '../../clock/Clock.ts';
import { isJsonObject, parseJson, readBody, declaresBody } from '../serving/requestBody.ts';
import { jsonResponse, writeResponse, type TwinResponse } from './http/responses.ts';
import type { MediaState } from './mediaState.ts';

export const CONTROL_PREFIX = '__twin';

// The largest step the clock takes at once (about 100 years): keeps dates printable.
const MAX_ADVANCE_MS = 100 * 366 * 24 * 3600 * 1000;

class ControlError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ControlError';
    this.status = status;
  }
}

function clockReading(state: MediaState): Record<string, unknown> {
  const now = state.clock.now();
  return { now, iso: new Date(now).toISOString(), mode: state.clockMode };
}

type ControlHandler = (state: MediaState, body: Readonly<Record<string, unknown>>) => TwinResponse;

const ROUTES: Readonly<Record<string, Readonly<Record<string, ControlHandler>>>> = {
  health: { GET: () => jsonResponse(200, { ok: true }) },
  reset: {
    POST: (state) => {
      state.reset();
      return jsonResponse(200, { ok: true });
    },
  },
  clock: {
    GET: (state) => jsonResponse(200, clockReading(state)),
    POST: (state, body) => {
      if (!(state.clock instanceof VirtualClock)) {
        throw new ControlError(400, 'twin: this twin runs on the real clock; start it with clock: "virtual" to move time');
      }
      const advanceMs = body['advanceMs'];
      if (typeof advanceMs !== 'number' || !Number.isInteger(advanceMs) || advanceMs < 0 || advanceMs > MAX_ADVANCE_MS) {
        throw new ControlError(400, `twin: advanceMs must be a whole number of milliseconds from 0 to ${MAX_ADVANCE_MS}, e.g. {"advanceMs": 86400000}`);
      }
      state.clock.advance(advanceMs);
      return jsonResponse(200, clockReading(state));
    },
  },
};

export function isControlTarget(segments: readonly string[]): boolean {
  return segments[0] === CONTROL_PREFIX;
}

export async function handleControlRequest(
  req: IncomingMessage,
  res: ServerResponse,
  segments: readonly string[],
  state: MediaState,
  reportInternalError: (error: unknown, request: string) => void,
): Promise<void> {
  let response: TwinResponse;
  try {
    const methods = segments.length === 2 ? ROUTES[segments[1] ?? ''] : undefined;
    if (!methods || !Object.hasOwn(ROUTES, segments[1] ?? '')) {
      throw new ControlError(404, 'twin: no control endpoint here; the endpoints are GET /__twin/health, POST /__twin/reset, GET and POST /__twin/clock');
    }
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) {
      const allow = Object.keys(methods).join(', ');
      response = jsonResponse(405, { error: `twin: this control endpoint takes ${allow}` }, { Allow: allow });
    } else {
      response = handler(state, await readControlBody(req));
    }
  } catch (error) {
    if (error instanceof ControlError) response = jsonResponse(error.status, { error: error.message });
    else {
      reportInternalError(error, `${req.method} ${req.url}`);
      response = jsonResponse(500, { error: 'twin: internal error in the control API (logged)' });
    }
  }
  writeResponse(res, req.method, response, 'application/json; charset=utf-8');
}

async function readControlBody(req: IncomingMessage): Promise<Readonly<Record<string, unknown>>> {
  if (!declaresBody(req.headers)) return {};
  const read = await readBody(req);
  if (read.kind === 'aborted') throw new ControlError(400, 'twin: the request body ended early');
  if (read.kind === 'too-large') throw new ControlError(413, 'twin: control bodies are at most 1 MiB');
  if (read.bytes.length === 0) return {};
  const parsed = parseJson(read.bytes);
  if (!parsed.ok) throw new ControlError(400, 'twin: the body is not valid JSON; send a JSON object, e.g. {"advanceMs": 1000}');
  if (!isJsonObject(parsed.value)) throw new ControlError(400, 'twin: the body must be a JSON object, e.g. {"advanceMs": 1000}');
  return parsed.value;
}
