/**
 * The twins a light verification (runPactPlan.ts) needs, started by pact-verify beside it: none off the twin target; twins already listening
 * on the configured ports (`npx api-contract-harness twins` in another step of the team's CI) are used as they
 * are; otherwise both start in pact-verify's process, on those ports, as the suites' own run starts them (a virtual media
 * clock), and stop when the run ends.
 */
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import type { PactApi } from './sandboxes.ts';

/** The twins a run has: `close` stops those it started, and leaves running ones alone. */
export interface PlanTwins {
  close(): Promise<void>;
}

/** The twins cannot be reached or started on the configured ports: a setup problem (exit 2), named with its fix. */
export class TwinsUnavailableError extends Error {
  override name = 'TwinsUnavailableError';
}

/** What pact-verify tells its verification process once the twins answer (verifyPlanProcess.ts); without them it stops that process. */
export type TwinsMessage = { readonly twins: 'ready' };

const NOTHING: PlanTwins = { close: async () => undefined };

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/__twin/health`, { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

export async function ensureTwins(apis: readonly PactApi[]): Promise<PlanTwins> {
  const { store, media } = harnessConfig();
  const needed = [...new Set(apis)].flatMap((api) => {
    const config = api === 'store' ? store : media;
    return config.mode === 'twin' ? [config] : [];
  });
  if (needed.length === 0) return NOTHING;
  const listening = await Promise.all(needed.map((config) => answers(config.twinUrl)));
  if (listening.every(Boolean)) return NOTHING;
  // Both start together: one already running beside a port that answers nothing would leave half a target.
  const running = needed.filter((_, i) => listening[i]);
  if (running.length > 0)
    throw new TwinsUnavailableError(
      `a twin answers at ${running.map((c) => c.twinUrl).join(', ')} but not at ${needed
        .filter((_, i) => !listening[i])
        .map((c) => c.twinUrl)
        .join(', ')}: stop the running twins (or start both with npx api-contract-harness twins), then run again.`,
    );
  const { startTwins, TwinsStartError } = await import('../../src/twins/startTwins.ts');
  let twins;
  try {
    twins = await startTwins({
      ...(store.mode === 'twin' ? { storePort: store.port } : {}),
      ...(media.mode === 'twin' ? { mediaPort: media.port } : {}),
      mediaClock: 'virtual',
    });
  } catch (error) {
    if (!(error instanceof TwinsStartError)) throw error;
    throw new TwinsUnavailableError(`the ${error.twin} twin: ${error.describe('127.0.0.1', { store: 'STORE_TWIN_PORT', media: 'KITSU_TWIN_PORT' })}`, {
      cause: error,
    });
  }
  return { close: () => twins.close() };
}
