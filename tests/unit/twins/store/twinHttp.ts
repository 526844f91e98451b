/**
 * Test helpers for the store twin's HTTP tests: the shared requests
 * (tests/unit/support/twinHttp.ts) plus stores, a store caller and the clock.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../../../src/twins/store/server.ts';
import { control, send, type Answer, type SendOptions } from '../../support/twinHttp.ts';

export { control, send, sendRaw, type Answer, type RawAnswer, type SendOptions } from '../../support/twinHttp.ts';

export const USER_AGENT = 'Twin unit tests (https://example.test/contact)';

export interface TwinStoreInfo {
  readonly storeId: number;
  readonly token: string;
  readonly appSecret: string;
  readonly baseUrl: string;
  readonly languages: string[];
  readonly mainLanguage: string;
  readonly clock: 'virtual' | 'real';
  readonly now: number;
}

/** A fresh store of its own, so tests never share a bucket or a catalogue; on a virtual clock unless asked. */
export function createStore(twinUrl: string, options: Record<string, unknown> = {}): Promise<TwinStoreInfo> {
  return control<TwinStoreInfo>(twinUrl, 'POST', '/stores', { clock: 'virtual', ...options });
}

/** A caller of one store's API with a valid User-Agent and token. */
export function storeApi(store: Pick<TwinStoreInfo, 'baseUrl' | 'token'>, token: string = store.token) {
  return (path: string, options: SendOptions & { json?: unknown } = {}): Promise<Answer> => {
    const headers: Record<string, string> = { 'User-Agent': USER_AGENT, Authentication: `bearer ${token}`, ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] ??= 'application/json; charset=utf-8';
      body = JSON.stringify(options.json);
    }
    return send(`${store.baseUrl}${path}`, { method: options.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
  };
}

export function advanceClock(twinUrl: string, storeId: number, advanceMs: number): Promise<{ now: number; iso: string }> {
  return control(twinUrl, 'POST', `/stores/${storeId}/clock`, { advanceMs });
}

/** A twin on an ephemeral port that records internal errors instead of logging them. */
/**
 * A twin for every test of the file: started before the first, closed after
 * the last, and the file fails if any request reached the 500 fallback.
 */
export function useTestTwin(): () => RunningStoreTwin {
  let started: { twin: RunningStoreTwin; internalErrors: unknown[] } | undefined;
  test.beforeAll(async () => {
    started = await startTestTwin();
  });
  test.afterAll(async () => {
    await started?.twin.close();
    expect(started?.internalErrors, 'no request reached the 500 fallback').toEqual([]);
  });
  return () => {
    if (!started) throw new Error('useTestTwin: the twin starts in beforeAll; call the getter inside a test');
    return started.twin;
  };
}

export async function startTestTwin(): Promise<{ twin: RunningStoreTwin; internalErrors: unknown[] }> {
  const internalErrors: unknown[] = [];
  const twin = await startStoreTwin({ port: 0, clock: 'virtual', onInternalError: (error) => internalErrors.push(error) });
  return { twin, internalErrors };
}
