/**
 * `npm run twins` and `npx api-contract-harness twins`: starts both twins (startTwins.ts) on fixed ports with
 * the real clock and prints how to reach them. Stops cleanly on Ctrl+C (SIGINT) or SIGTERM.
 *
 *   --host <address>     where both listen (default 127.0.0.1; 0.0.0.0 serves other containers of a CI job)
 *   --store-port <n>     the store twin's port (default STORE_TWIN_PORT, else 4010; 0 picks a free one)
 *   --media-port <n>     the media twin's port (default KITSU_TWIN_PORT, else 4020; 0 picks a free one)
 */
import { mediaTwinClock, renamedVariableProblems, storeTwinPlan, variable as readVariable } from '../config/env.ts';
import { DEFAULT_KITSU_TWIN_PORT, DEFAULT_STORE_TWIN_PORT } from '../config/harnessConfig.ts';
import { isStorePlan, STORE_PLANS, type StorePlan } from '../rules/storeContract.ts';
import { MEDIA_OAUTH_CLIENT_ID, startTwins, TwinsStartError, type Twins } from './startTwins.ts';

/** How a person running the twins moves each one's port. */
const PORT_SETTINGS = { store: '--store-port (or STORE_TWIN_PORT)', media: '--media-port (or KITSU_TWIN_PORT)' } as const;

export const TWINS_USAGE = `Usage: twins [--host <address>] [--store-port <n>] [--media-port <n>]

  --host <address>    where both twins listen (default 127.0.0.1; 0.0.0.0 to serve other containers)
  --store-port <n>    the store twin's port (default STORE_TWIN_PORT, else 4010; 0 picks a free port)
  --media-port <n>    the media twin's port (default KITSU_TWIN_PORT, else 4020; 0 picks a free port)

Variables: STORE_TWIN_PLAN (standard or plus), KITSU_TWIN_CLOCK (real or virtual).`;

/** A problem with the command line or the environment: the message names the flag or variable and the fix. */
export class TwinsConfigError extends Error {
  override name = 'TwinsConfigError';
}

interface TwinSettings {
  readonly host: string;
  readonly storePort: number;
  readonly mediaPort: number;
  readonly storePlan: StorePlan;
  readonly mediaClock: 'real' | 'virtual';
}

/** A port from a flag or a variable; `name` is what the message tells the user to fix. */
function readPort(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const port = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || port > 65_535) {
    throw new TwinsConfigError(`${name}="${raw}" is not a TCP port. Give a whole number from 0 (a free port) to 65535, for example ${fallback + 1}.`);
  }
  return port;
}

/** The settings from the flags, then the environment; a TwinsConfigError names what to fix. */
export function readTwinSettings(argv: readonly string[]): TwinSettings {
  const renamed = renamedVariableProblems();
  if (renamed.length > 0) throw new TwinsConfigError(renamed.join('\n'));
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (!['--host', '--store-port', '--media-port'].includes(flag)) throw new TwinsConfigError(`unknown option "${flag}".\n\n${TWINS_USAGE}`);
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new TwinsConfigError(`${flag} needs a value.\n\n${TWINS_USAGE}`);
    flags.set(flag, value);
  }
  const storePort = flags.has('--store-port')
    ? readPort('--store-port', flags.get('--store-port'), DEFAULT_STORE_TWIN_PORT)
    : readPort('STORE_TWIN_PORT', readVariable('STORE_TWIN_PORT'), DEFAULT_STORE_TWIN_PORT);
  const mediaPort = flags.has('--media-port')
    ? readPort('--media-port', flags.get('--media-port'), DEFAULT_KITSU_TWIN_PORT)
    : readPort('KITSU_TWIN_PORT', readVariable('KITSU_TWIN_PORT'), DEFAULT_KITSU_TWIN_PORT);
  if (!['', 'real', 'virtual'].includes(mediaTwinClock())) {
    throw new TwinsConfigError(`KITSU_TWIN_CLOCK is "${mediaTwinClock()}". Set it to real (the default) or virtual.`);
  }
  const plan = storeTwinPlan() || 'standard';
  if (!isStorePlan(plan))
    throw new TwinsConfigError(`STORE_TWIN_PLAN is "${plan}". Set it to one of ${Object.keys(STORE_PLANS).join(', ')}, or unset it for standard.`);
  // The suites' own run (playwright.config.ts) asks for a virtual media clock so tests can move it; people get the real one.
  const mediaClock = mediaTwinClock() === 'virtual' ? 'virtual' : 'real';
  return { host: flags.get('--host') ?? '127.0.0.1', storePort, mediaPort, storePlan: plan, mediaClock };
}

/** What a person needs to reach the twins: the seeded stores, users and app, and the control APIs. */
function describeTwins(twins: Twins, { storePlan, mediaClock }: TwinSettings): string[] {
  const { store, media } = twins;
  return [
    `Store Commerce API twin on ${store.url} (real clock${storePlan === 'standard' ? '' : `, ${storePlan} plan`})`,
    ...store.stores.map((s) => `  store ${s.id}: base ${s.baseUrl}  token ${s.token}  languages ${s.languages.join(', ')} (main ${s.mainLanguage})`),
    `  control API: ${store.url}/__twin (GET /__twin/health, POST /__twin/stores, POST /__twin/reset)`,
    `  storefront: ${store.url}/storefront/{store_id}/products/{product_id} (product pages with LS.registerOnChangeVariant)`,
    // A twin fixture's client secret, not a real credential: an app under test needs it to exchange codes.
    `  app ${store.app.id} (${store.app.name}): client secret ${store.app.secret}  redirect ${store.app.redirectUrl}  scopes ${store.app.scopes.join(',')}`,
    `  install: ${store.url}/apps/${store.app.id}/authorize?state=... then POST ${store.url}/apps/authorize/token (POST /__twin/apps registers another app)`,
    `Media Tracking API twin on ${media.url} (${mediaClock} clock)`,
    `  OAuth token: POST ${media.oauthTokenUrl} (grant_type=password, username, password; client_id ${MEDIA_OAUTH_CLIENT_ID} optional)`,
    ...media.users.map(
      (user) =>
        `  user ${user.id}: ${user.name} / ${user.email}  password ${user.password}  (${[user.sfwFilter ? 'adult content hidden' : 'sees adult content', ...(user.admin ? ['admin'] : [])].join(', ')})`,
    ),
    `  control API: ${media.url.replace(/\/api\/edge$/, '')}/__twin (GET /__twin/health, POST /__twin/reset, GET /__twin/clock)`,
  ];
}

/** Starts the twins in the foreground; the exit code is set on failure (1: could not start, 2: bad settings). */
export async function runTwins(argv: readonly string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(TWINS_USAGE);
    return;
  }
  let settings: TwinSettings;
  try {
    settings = readTwinSettings(argv);
  } catch (error) {
    if (!(error instanceof TwinsConfigError)) throw error;
    console.error(`[twins] ${error.message}`);
    process.exitCode = 2;
    return;
  }
  let twins: Twins;
  try {
    twins = await startTwins({
      host: settings.host,
      storePort: settings.storePort,
      mediaPort: settings.mediaPort,
      clock: 'real',
      mediaClock: settings.mediaClock,
      storePlan: settings.storePlan,
    });
  } catch (error) {
    if (!(error instanceof TwinsStartError)) throw error;
    console.error(`[twins] ${error.twin === 'store' ? 'Store Commerce API' : 'Media Tracking API'} twin: ${error.describe(settings.host, PORT_SETTINGS)}`);
    process.exitCode = 1;
    return;
  }
  // A reader that went away (`| head`) is no reason to crash on the next line.
  process.stdout.on('error', () => undefined);
  for (const line of describeTwins(twins, settings)) console.log(line);
  console.log('Press Ctrl+C to stop.');
  stopOnSignal(twins);
}

/** Ctrl+C or SIGTERM closes both twins once; the exit code says whether they closed cleanly. */
function stopOnSignal(twins: Twins): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[twins] ${signal}: stopping the Store Commerce API twin, Media Tracking API twin...`);
    twins.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('[twins] a twin did not close cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.main) await runTwins(process.argv.slice(2));
