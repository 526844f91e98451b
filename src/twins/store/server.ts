import { STORE_CONTRACT } from '../../rules/storeContract.ts';
import { startHttpServer } from '../serving/startHttpServer.ts';
import { DEFAULT_MAIN_LANGUAGE, handleApiRequest } from './apiPipeline.ts';
import { handleControlRequest, isControlTarget } from './control.ts';
import { errorBody } from './errors.ts';
import { writeResponse } from './responses.ts';
import { apiRoutes } from './routes/apiRoutes.ts';
import { handleStorefrontRequest, isStorefrontTarget } from './storefront/storefrontRoute.ts';
import { handleInstallRequest, isInstallTarget } from './install/installRoute.ts';
import type { StoreTwinBreak } from './twinBreaks.ts';
import type { StorePlan } from '../../rules/storeContract.ts';
import type { ClockMode } from './storeState.ts';
import { TwinState } from './twinState.ts';

export interface StoreTwinOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Clock of the seeded stores. Default 'virtual': time moves only through the control API. */
  readonly clock?: ClockMode;
  /** Called for every unexpected exception (answered 500); default: console.error. */
  readonly onInternalError?: (error: unknown, request: string) => void;
  /** One deliberate break (twinBreaks.ts), to prove the properties go red; never set outside tests. */
  readonly twinBreak?: StoreTwinBreak;
  /** The seeded stores' plan; default standard (the contract's bucket). */
  readonly plan?: StorePlan;
}

export interface RunningStoreTwin {
  /** `http://{host}:{port}`: the Store API is under `/v1/{store_id}`, the control API under `/__twin`, product pages under `/storefront`, the install flow under `/apps`. */
  readonly url: string;
  close(): Promise<void>;
}

function logInternalError(error: unknown, request: string): void {
  console.error(`[store-twin] internal error answering ${request}:`, error);
}

/**
 * Starts the Store Commerce API twin: a real HTTP server with the seeded
 * stores 100001 and 100002, and the control API under /__twin.
 */
export async function startStoreTwin(options: StoreTwinOptions = {}): Promise<RunningStoreTwin> {
  const host = options.host ?? '127.0.0.1';
  const reportInternalError = options.onInternalError ?? logInternalError;
  const closing = new AbortController();
  const twin = new TwinState({ clockMode: options.clock ?? 'virtual', deliverySignal: closing.signal, twinBreak: options.twinBreak, seededPlan: options.plan });
  const running = await startHttpServer({
    port: options.port,
    host,
    reportInternalError,
    handle: async (req, res, target, origin) => {
      if (isControlTarget(target)) await handleControlRequest(req, res, target, { twin, origin, reportInternalError });
      else if (isStorefrontTarget(target)) await handleStorefrontRequest(req, res, target, { twin, reportInternalError });
      else if (isInstallTarget(target)) await handleInstallRequest(req, res, target, { twin, reportInternalError });
      else await handleApiRequest(req, res, target, { twin, router: apiRoutes, origin, reportInternalError });
    },
    writeInternalError: (req, res) => writeResponse(res, req.method, { status: 500, body: errorBody(500) }, { 'X-Main-Language': DEFAULT_MAIN_LANGUAGE }),
    rawError: (status, _statusText, description) => ({
      contentType: STORE_CONTRACT.jsonContentType,
      body: JSON.stringify(errorBody(status, description)),
      headers: { 'X-Main-Language': DEFAULT_MAIN_LANGUAGE },
    }),
    unparseable: {
      headersTooLarge: 'Request headers are too large',
      malformed: 'Malformed HTTP request',
      connect: 'CONNECT is not supported',
      missingHost: 'An HTTP/1.1 request must carry a Host header',
    },
  });

  return {
    url: running.url,
    close: () => {
      // Webhook deliveries in flight stop before the server does.
      closing.abort();
      return running.close();
    },
  };
}
