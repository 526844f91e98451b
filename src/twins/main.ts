/**
 * `npm run twins`: starts the twins on fixed local ports with the real clock and
 * prints how to reach them. Stops cleanly on Ctrl+C (SIGINT) or SIGTERM.
 */
import { MEDIA_CONTRACT } from '../rules/mediaContract.ts';
import { SEEDED_USERS } from './media/seed.ts';
import { MEDIA_SEED } from './media/seedFacts.ts';
import { startMediaTwin } from './media/server.ts';
import { SEEDED_STORES } from './store/seed.ts';
import { startStoreTwin } from './store/server.ts';
import { SEEDED_APP } from './store/install/apps.ts';
import { mediaTwinClock, storeTwinPlan, variable as readVariable } from '../config/env.ts';
import { isStorePlan, STORE_PLANS, type StorePlan } from '../rules/storeContract.ts';

const HOST = '127.0.0.1';

interface RunningTwin {
  readonly name: string;
  close(): Promise<void>;
}

/** A problem with the environment: the message names the variable and the fix. */
class MockConfigError extends Error {}

/** Reads a port variable once, at start. */
function readPort(variable: string, fallback: number): number {
  const raw = readVariable(variable);
  if (raw === undefined || raw.trim() === '') return fallback;
  const port = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || port < 1 || port > 65_535) {
    throw new MockConfigError(
      `${variable}="${raw}" is not a TCP port. Set ${variable} to a whole number from 1 to 65535 (for example ${variable}=${fallback + 1}), or unset it to use ${fallback}.`,
    );
  }
  return port;
}

function describeStartFailure(error: unknown, variable: string, port: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return `port ${port} on ${HOST} is already in use. Stop what is using it, or set ${variable} to a free port (for example ${variable}=${port + 1}).`;
  if (code === 'EACCES') return `no permission to listen on port ${port}. Set ${variable} to a port above 1023.`;
  return `could not start on port ${port}: ${error instanceof Error ? error.message : String(error)}`;
}

interface TwinSettings {
  readonly storePort: number;
  readonly mediaPort: number;
  readonly storePlan: StorePlan;
  readonly mediaClock: 'real' | 'virtual';
}

/** The ports, the store's plan and the media clock from the environment; a MockConfigError names the variable to fix. */
function readSettings(): TwinSettings {
  const storePort = readPort('STORE_MOCK_PORT', 4010);
  const mediaPort = readPort('KITSU_MOCK_PORT', 4020);
  if (!['', 'real', 'virtual'].includes(mediaTwinClock() ?? '')) {
    throw new MockConfigError(`KITSU_MOCK_CLOCK is "${mediaTwinClock()}". Set it to real (the default) or virtual.`);
  }
  const plan = storeTwinPlan() || 'standard';
  if (!isStorePlan(plan))
    throw new MockConfigError(`STORE_MOCK_PLAN is "${plan}". Set it to one of ${Object.keys(STORE_PLANS).join(', ')}, or unset it for standard.`);
  // The suites' own run (playwright.config.ts) asks for a virtual media clock so tests can move it;
  // people running `npm run twins` get the real one.
  const mediaClock = mediaTwinClock() === 'virtual' ? 'virtual' : 'real';
  return { storePort, mediaPort, storePlan: plan, mediaClock };
}

/** The store twin, and what a person needs to reach it: the seeded stores, the control API, the storefront and the seeded app. */
async function startStore({ storePort, storePlan }: TwinSettings): Promise<RunningTwin> {
  const store = await startStoreTwin({ port: storePort, host: HOST, clock: 'real', plan: storePlan });
  console.log(`Store Commerce API twin on ${store.url} (real clock${storePlan === 'standard' ? '' : `, ${storePlan} plan`})`);
  for (const seeded of SEEDED_STORES) {
    console.log(
      `  store ${seeded.id}: base ${store.url}/v1/${seeded.id}  token ${seeded.token}  languages ${seeded.languages.join(', ')} (main ${seeded.mainLanguage})`,
    );
  }
  console.log(`  control API: ${store.url}/__twin (GET /__twin/health, POST /__twin/stores, POST /__twin/reset)`);
  console.log(`  storefront: ${store.url}/storefront/{store_id}/products/{product_id} (product pages with LS.registerOnChangeVariant)`);
  // A twin fixture's client secret, not a real credential: an app under test needs it to exchange codes.
  console.log(
    `  app ${SEEDED_APP.id} (${SEEDED_APP.name}): client secret ${SEEDED_APP.secret}  redirect ${SEEDED_APP.redirectUrl}  scopes ${SEEDED_APP.scopes.join(',')}`,
  );
  console.log(
    `  install: ${store.url}/apps/${SEEDED_APP.id}/authorize?state=... then POST ${store.url}/apps/authorize/token (POST /__twin/apps registers another app)`,
  );
  return { name: 'Store Commerce API twin', close: () => store.close() };
}

/** The media twin, and what a person needs to reach it: the token endpoint, the seeded users and the control API. */
async function startMedia({ mediaPort, mediaClock }: TwinSettings): Promise<RunningTwin> {
  const media = await startMediaTwin({ port: mediaPort, host: HOST, clock: mediaClock });
  console.log(`Media Tracking API twin on ${media.url}${MEDIA_CONTRACT.edgePrefix} (${mediaClock} clock)`);
  console.log(
    `  OAuth token: POST ${media.url}${MEDIA_CONTRACT.oauthTokenPath} (grant_type=password, username, password; client_id ${MEDIA_SEED.oauthClientId} optional)`,
  );
  for (const user of SEEDED_USERS) {
    const notes = [user.sfwFilter ? 'adult content hidden' : 'sees adult content', ...(user.admin ? ['admin'] : [])].join(', ');
    console.log(`  user ${user.id}: ${user.name} / ${user.email}  password ${user.password}  (${notes})`);
  }
  console.log(`  control API: ${media.url}/__twin (GET /__twin/health, POST /__twin/reset, GET /__twin/clock)`);
  return { name: 'Media Tracking API twin', close: () => media.close() };
}

async function main(): Promise<void> {
  let settings: TwinSettings;
  try {
    settings = readSettings();
  } catch (error) {
    if (!(error instanceof MockConfigError)) throw error;
    console.error(`[twins] ${error.message}`);
    process.exitCode = 1;
    return;
  }

  const running: RunningTwin[] = [];
  try {
    running.push(await startStore(settings));
  } catch (error) {
    console.error(`[twins] Store Commerce API twin: ${describeStartFailure(error, 'STORE_MOCK_PORT', settings.storePort)}`);
    process.exitCode = 1;
    return;
  }
  try {
    running.push(await startMedia(settings));
  } catch (error) {
    console.error(`[twins] Media Tracking API twin: ${describeStartFailure(error, 'KITSU_MOCK_PORT', settings.mediaPort)}`);
    for (const twin of running) await twin.close();
    process.exitCode = 1;
    return;
  }

  console.log('Press Ctrl+C to stop.');
  stopOnSignal(running);
}

/** Ctrl+C or SIGTERM closes every twin once; the exit code says whether they all closed cleanly. */
function stopOnSignal(running: readonly RunningTwin[]): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[twins] ${signal}: stopping ${running.map((twin) => twin.name).join(', ')}...`);
    Promise.allSettled(running.map((twin) => twin.close())).then((results) => {
      const failed = results.filter((result) => result.status === 'rejected');
      for (const failure of failed) console.error('[twins] a twin did not close cleanly:', (failure as PromiseRejectedResult).reason);
      process.exit(failed.length > 0 ? 1 : 0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
