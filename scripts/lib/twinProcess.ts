/**
 * The twins as a separate process, as a live target is reached: used by the
 * gate's live path and by npm run breaks. Also how a user of the media twin signs
 * in, as on the real service.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { startBreakingProxy, type ProviderChange } from '../../src/testing/providerBreaks/breakingProxy.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';
import { MEDIA_SEED } from '../../src/twins/media/seedFacts.ts';
import { processEnv } from '../../src/config/env.ts';
import type { StorePlan } from '../../src/rules/storeContract.ts';
import { SEEDED_APP } from '../../src/twins/store/install/apps.ts';

/** The seeded store the live path verifies (src/twins/store/seed.ts). */
export const SEEDED_STORE = { id: '100001', token: 'twin-token-100001' } as const;

/** The other seeded store: the live path's second sandbox store, for the scope rules (STORE_SECOND_ID). */
export const SECOND_SEEDED_STORE = { id: '100002', token: 'twin-token-100002' } as const;

/**
 * The plan of the seeded stores in the gate's recording (and so in the shipped cassettes): plus,
 * ten times the contract's bucket (field notes), so recording is bound by CPU, not by the rate
 * limit. The standard plan is proven on the twins' run, by the same suites, properties and model.
 */
export const RECORDING_PLAN: StorePlan = 'plus';

/**
 * Starts `npm run twins`'s entry on the given ports; resolves once both twins answer (bounded: 10 s). A port something
 * already answers on is refused first: a twin left running by an earlier run would answer the health check in the new
 * one's place, and a job would then run against its state, written by the jobs before it.
 */
export async function startTwinProcess(
  storePort: number,
  mediaPort: number,
  stdio: 'ignore' | 'inherit' = 'ignore',
  plan: StorePlan = 'standard',
): Promise<ChildProcess> {
  for (const port of [storePort, mediaPort]) {
    const answered = await fetch(`http://127.0.0.1:${port}/__twin/health`).then(
      () => true,
      () => false,
    );
    if (answered) throw new Error(`port ${port} is taken: a process answers there already (a twin left by an earlier run? stop it, or give other ports)`);
  }
  const twin = spawn(process.execPath, ['src/twins/main.ts'], {
    env: { ...processEnv(), STORE_TWIN_PORT: String(storePort), KITSU_TWIN_PORT: String(mediaPort), STORE_TWIN_PLAN: plan },
    stdio: ['ignore', 'ignore', stdio],
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    if (twin.exitCode !== null) throw new Error(`the twins exited with ${twin.exitCode} before they were ready on ports ${storePort}/${mediaPort}`);
    try {
      const [store, media] = await Promise.all([fetch(`http://127.0.0.1:${storePort}/__twin/health`), fetch(`http://127.0.0.1:${mediaPort}/__twin/health`)]);
      if (store.ok && media.ok) return twin;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  twin.kill();
  throw new Error(`the twins did not answer on ports ${storePort}/${mediaPort} within 10 s; is a port taken?`);
}

/**
 * Stops a twin process and resolves once it has exited: the next twin on the same ports must not
 * find this one still answering its health check while it shuts down (and then lose it).
 */
export async function stopTwinProcess(twin: ChildProcess): Promise<void> {
  if (twin.exitCode !== null || twin.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => twin.once('exit', () => resolve()));
  twin.kill();
  await exited;
}

/** The adult-allowing seeded user signs in with the password grant; resolves to the access token. */
export async function signInOnMediaTwin(mediaPort: number): Promise<string> {
  const { email, password } = MEDIA_SEED.users.adultAllowed;
  const answer = await fetch(`http://127.0.0.1:${mediaPort}${MEDIA_CONTRACT.oauthTokenPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', username: email, password }),
  });
  if (!answer.ok) throw new Error(`signing in on the media twin answered ${answer.status}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/**
 * The live variables that make a twin process (or a proxy in front of it) the
 * target of a live run: the seeded store, a signed-in media user, writes allowed.
 */
export function twinAsLiveEnv(options: { storeUrl: string; mediaUrl: string; mediaToken: string; userAgent: string }): Record<string, string> {
  return {
    STORE_API_URL: options.storeUrl,
    STORE_ID: SEEDED_STORE.id,
    LIVE_STORE_ALLOWLIST: `${SEEDED_STORE.id},${SECOND_SEEDED_STORE.id}`,
    STORE_ACCESS_TOKEN: SEEDED_STORE.token,
    STORE_SECOND_ID: SECOND_SEEDED_STORE.id,
    STORE_SECOND_ACCESS_TOKEN: SECOND_SEEDED_STORE.token,
    // The token endpoint is on the store twin's own port (ASSUMPTIONS.md, Install flow), with its seeded app.
    STORE_AUTH_URL: options.storeUrl,
    STORE_APP_ID: String(SEEDED_APP.id),
    STORE_APP_SECRET: SEEDED_APP.secret,
    STORE_USER_AGENT: options.userAgent,
    STORE_ALLOW_WRITES: '1',
    KITSU_API_URL: options.mediaUrl,
    KITSU_ACCESS_TOKEN: options.mediaToken,
    KITSU_ALLOW_WRITES: '1',
  };
}

/** A twin process reached as a live provider, through a breaking proxy per API where one is given. */
export interface ProviderBehindBreaks {
  /** The variables of a live run against it (twinAsLiveEnv, with the proxies' URLs). */
  readonly env: Record<string, string>;
  /** Where each API is reached: its proxy, or the twin itself. */
  readonly storeUrl: string;
  readonly mediaUrl: string;
  close(): Promise<void>;
}

/**
 * The twins as a separate process, the media user signed in, and each API's change (a break or a deviation of
 * src/testing/providerBreaks/) in a proxy in front of it: the live provider of the benches and checks that run a
 * verify against one break (verdicts:check, the nightly and break-cost benches, breaks:provider).
 */
export async function startProviderBehindBreaks(options: {
  readonly storePort: number;
  readonly mediaPort: number;
  readonly plan?: StorePlan;
  readonly store?: ProviderChange;
  readonly media?: ProviderChange;
  /** The store proxy's port; free when not given. */
  readonly storeProxyPort?: number;
  readonly userAgent: string;
}): Promise<ProviderBehindBreaks> {
  const twin = await startTwinProcess(options.storePort, options.mediaPort, 'ignore', options.plan);
  const proxies: Server[] = [];
  try {
    const token = await signInOnMediaTwin(options.mediaPort);
    const reach = async (port: number, change: ProviderChange | undefined, proxyPort?: number): Promise<string> => {
      if (!change) return `http://127.0.0.1:${port}`;
      const proxy = await startBreakingProxy(`http://127.0.0.1:${port}`, change, { signedInToken: token }, proxyPort);
      proxies.push(proxy.server);
      return proxy.url;
    };
    const storeUrl = await reach(options.storePort, options.store, options.storeProxyPort);
    const mediaUrl = `${await reach(options.mediaPort, options.media)}/api/edge`;
    return {
      env: twinAsLiveEnv({ storeUrl, mediaUrl, mediaToken: token, userAgent: options.userAgent }),
      storeUrl,
      mediaUrl,
      close: async () => {
        for (const proxy of proxies) proxy.close();
        await stopTwinProcess(twin);
      },
    };
  } catch (error) {
    for (const proxy of proxies) proxy.close();
    await stopTwinProcess(twin);
    throw error;
  }
}
