/**
 * The harness's configuration, read from the environment once and validated up
 * front: a bad or missing variable fails the run before any test starts, with a
 * message that names the variable and the fix. Secrets are kept out of
 * `describeConfig` and of every error message.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './ConfigError.ts';
import { recordingsDir, renamedVariableProblems, type Env } from './env.ts';

export const TARGETS = ['twin', 'live', 'record', 'replay'] as const;
export type Target = (typeof TARGETS)[number];

/** Whether a run on `target` goes through recordings: record writes them, replay answers from them. */
export const usesRecordings = (target: Target): target is 'record' | 'replay' => target === 'record' || target === 'replay';

export const DEFAULT_STORE_API_URL = 'https://api.tiendanube.com';
export const DEFAULT_STORE_TWIN_PORT = 4010;
export const DEFAULT_KITSU_API_URL = 'https://kitsu.io/api/edge';
export const DEFAULT_KITSU_TWIN_PORT = 4020;
export const TWIN_HOST = '127.0.0.1';
/** Requests a live run may send to both APIs when LIVE_REQUEST_BUDGET is unset (see readLiveRequestBudget). */
export const DEFAULT_LIVE_REQUEST_BUDGET = 2000;
/** What the harness calls itself when no User-Agent is configured (twin target only). */
export const HARNESS_USER_AGENT = 'api-contract-harness (https://example.invalid/api-contract-harness)';

export interface TwinStoreConfig {
  readonly mode: 'twin';
  /** Origin of the store twin, e.g. http://127.0.0.1:4010; control API under /__twin. */
  readonly twinUrl: string;
  readonly port: number;
  readonly userAgent: string;
  /** On the twin every test gets its own store, so writes are always allowed. */
  readonly allowWrites: true;
  /** The twin serves its own product pages (/storefront); STOREFRONT_URL is for live. */
  readonly storefrontUrl?: undefined;
}

export interface LiveStoreConfig {
  readonly mode: 'live';
  /** STORE_API_URL without a trailing slash; the harness appends /v1/{store_id}. */
  readonly apiUrl: string;
  readonly storeId: string;
  readonly token: string;
  readonly userAgent: string;
  readonly allowWrites: boolean;
  /** STOREFRONT_URL: a product page of the store, for the storefront suite; undefined when unset. */
  readonly storefrontUrl?: string | undefined;
  /** The app's install flow on live: the token endpoint's host and, when given, the app's credentials. */
  readonly install?: LiveInstallConfig | undefined;
  /** STORE_SECOND_ID and STORE_SECOND_ACCESS_TOKEN: a second sandbox store, which the scope rules need; undefined when unset. */
  readonly secondStore?: LiveSecondStore | undefined;
  /**
   * STORE_TEAM_SANDBOXES: per consumer name, the sandbox store and the app token that consumer's integration uses, so
   * its pact is verified as that team's app (its scopes, its bucket); a consumer without an entry gets the harness's.
   */
  readonly teamSandboxes?: Readonly<Record<string, LiveTeamSandbox>> | undefined;
}

/**
 * One team's sandbox: its store, its app's token (never printed), when its app names itself otherwise its User-Agent, and
 * when the store is served from another host than STORE_API_URL (a regional host, or a twin process), that host.
 */
export interface LiveTeamSandbox {
  readonly storeId: string;
  readonly token: string;
  readonly userAgent?: string | undefined;
  readonly apiUrl?: string | undefined;
}

/** A second allow-listed sandbox store and its token: what a store's token must not reach, and whose path must answer its own data. */
export interface LiveSecondStore {
  readonly storeId: string;
  /** Never printed, attached or written to a report. */
  readonly token: string;
}

/**
 * STORE_AUTH_URL (default https://www.tiendanube.com, where the field notes put the token endpoint),
 * STORE_APP_ID and STORE_APP_SECRET: what checks the token endpoint on live. The secret is never printed.
 */
export interface LiveInstallConfig {
  readonly authUrl: string;
  readonly appId?: string | undefined;
  readonly appSecret?: string | undefined;
}

export const DEFAULT_STORE_AUTH_URL = 'https://www.tiendanube.com';

export interface TwinMediaConfig {
  readonly mode: 'twin';
  /** Origin of the media twin; the API is under /api/edge, the control API under /__twin. */
  readonly twinUrl: string;
  readonly port: number;
  /** KITSU_API_URL's equivalent on the twin: {twinUrl}/api/edge. */
  readonly apiUrl: string;
  readonly allowWrites: true;
}

export interface LiveMediaConfig {
  readonly mode: 'live';
  /** KITSU_API_URL without a trailing slash, ending in /api/edge. */
  readonly apiUrl: string;
  /** KITSU_ACCESS_TOKEN: optional; without it only anonymous checks run. */
  readonly token: string | undefined;
  readonly allowWrites: boolean;
}

/**
 * An API a live or record run leaves alone: none of its variables is set, so a
 * team with an account for one API only can verify that one. Its tests are
 * skipped with `reason`, which names the variables that would enable them.
 */
export interface OffApiConfig {
  readonly mode: 'off';
  readonly reason: string;
  readonly allowWrites: false;
  readonly storefrontUrl?: undefined;
}

export type StoreConfig = TwinStoreConfig | LiveStoreConfig | OffApiConfig;
export type MediaConfig = TwinMediaConfig | LiveMediaConfig | OffApiConfig;

/** The variables that switch an API on for a live run; setting any of them asks for that API. */
export const STORE_VARIABLES = ['STORE_ID', 'STORE_ACCESS_TOKEN', 'STORE_USER_AGENT', 'STORE_API_URL'] as const;
export const MEDIA_VARIABLES = ['KITSU_API_URL', 'KITSU_ACCESS_TOKEN'] as const;

export interface HarnessConfig {
  readonly target: Target;
  readonly store: StoreConfig;
  readonly media: MediaConfig;
  /** LIVE_REQUEST_BUDGET: requests a live or record run may send to both APIs together; undefined on the twins and replays, which cost nothing. */
  readonly liveRequestBudget: number | undefined;
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Reads and validates the environment; collects every problem before failing. */
export function loadConfig(env: Env = process.env): HarnessConfig {
  const problems = renamedVariableProblems(env);
  const target = readTarget(env, problems);
  if (target === 'replay') {
    // The clients are configured as the recording was made; nock answers them (src/recording).
    const recorded = readRecordedTarget(recordingsDir(env), problems);
    if (problems.length > 0 || !recorded) throw new ConfigError(problems);
    return { target, store: recorded.store, media: recorded.media, liveRequestBudget: undefined };
  }
  // Recording is a live run whose traffic is also written down.
  const live = target === 'live' || target === 'record';
  if (!live) {
    const store = readTwinStore(env, problems);
    const media = readTwinMedia(env, problems);
    if (problems.length > 0) throw new ConfigError(problems);
    return { target, store, media, liveRequestBudget: undefined };
  }
  // One API at a time: an API none of whose variables is set is left alone, not refused.
  const wantsStore = STORE_VARIABLES.some((name) => env[name]?.trim());
  const wantsMedia = MEDIA_VARIABLES.some((name) => env[name]?.trim());
  if (!wantsStore && !wantsMedia) {
    problems.push(
      `HARNESS_TARGET=${target} needs the variables of at least one API: for the store ${STORE_VARIABLES.slice(0, 3).join(', ')} (and LIVE_STORE_ALLOWLIST); for media KITSU_API_URL (and KITSU_ACCESS_TOKEN for signed-in checks). See docs/live.md.`,
    );
  }
  const store = wantsStore ? readLiveStore(env, problems) : offApi('store', STORE_VARIABLES.slice(0, 3));
  const media = wantsMedia ? readLiveMedia(env, problems) : offApi('media', ['KITSU_API_URL']);
  const liveRequestBudget = readLiveRequestBudget(env, problems);
  if (problems.length > 0 || !store || !media) throw new ConfigError(problems);
  return { target, store, media, liveRequestBudget };
}

/** What a record run was made against, tokens replaced by their stand-ins; an API the run left out is `off`. */
export interface RecordedTarget {
  readonly store: LiveStoreConfig | OffApiConfig;
  readonly media: LiveMediaConfig | OffApiConfig;
}

/** recordings/target.json: src/recording writes it, and a replay is configured from it as the recording was. */
export function recordedTargetPath(root: string): string {
  return join(root, 'target.json');
}

/** The target a replay runs as; a problem (no recordings yet) is pushed with its fix. */
export function readRecordedTarget(root: string, problems: string[]): RecordedTarget | undefined {
  const path = recordedTargetPath(root);
  if (!existsSync(path)) {
    problems.push(
      `HARNESS_TARGET=replay needs recordings, and ${path} is missing. Record first: npm run record (or set RECORDINGS_DIR to a directory of recordings).`,
    );
    return undefined;
  }
  try {
    const target = JSON.parse(readFileSync(path, 'utf8')) as RecordedTarget;
    const known = (mode: unknown) => mode === 'live' || mode === 'off';
    if (!known(target.store?.mode) || !known(target.media?.mode)) throw new Error('store and media must each be a live configuration, or off');
    if (target.store.mode === 'off' && target.media.mode === 'off') throw new Error('neither API was recorded');
    return target;
  } catch (error) {
    problems.push(`${path} is not a recorded target (${(error as Error).message}). Record again: npm run record.`);
    return undefined;
  }
}

function offApi(api: 'store' | 'media', variables: readonly string[]): OffApiConfig {
  return {
    mode: 'off',
    allowWrites: false,
    reason: `the ${api} API is not configured for this run: set ${variables.join(', ')} to verify it too (docs/live.md).`,
  };
}

/** Why `api`'s tests cannot run in this configuration, or undefined when they can. */
export function apiOffReason(config: HarnessConfig, api: 'store' | 'media'): string | undefined {
  const which = config[api];
  return which.mode === 'off' ? which.reason : undefined;
}

function readTarget(env: Env, problems: string[]): Target {
  const raw = (env.HARNESS_TARGET ?? '').trim() || 'twin';
  if (raw === 'mock') {
    problems.push('HARNESS_TARGET=mock: the target is now called twin; set HARNESS_TARGET=twin');
    return 'twin';
  }
  if ((TARGETS as readonly string[]).includes(raw)) return raw as Target;
  problems.push(
    `HARNESS_TARGET is "${raw}", which is not a target. Set HARNESS_TARGET to one of: ${TARGETS.join(', ')} (default twin: the in-repo twins; record: live, writing recordings; replay: the recordings).`,
  );
  return 'twin';
}

export function readPort(env: Env, name: string, fallback: number, problems: string[]): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    problems.push(`${name} is "${raw}", not a TCP port. Set ${name} to a whole number from 1 to 65535, or unset it for ${fallback}.`);
    return fallback;
  }
  return port;
}

function readTwinStore(env: Env, problems: string[]): TwinStoreConfig {
  const port = readPort(env, 'STORE_TWIN_PORT', DEFAULT_STORE_TWIN_PORT, problems);
  return {
    mode: 'twin',
    twinUrl: `http://${TWIN_HOST}:${port}`,
    port,
    userAgent: env.STORE_USER_AGENT?.trim() || HARNESS_USER_AGENT,
    allowWrites: true,
  };
}

function readLiveStore(env: Env, problems: string[]): LiveStoreConfig | undefined {
  const apiUrl = readLiveUrl(env, 'STORE_API_URL', DEFAULT_STORE_API_URL, problems);
  const storeId = env.STORE_ID?.trim() ?? '';
  if (!storeId) {
    problems.push('STORE_ID is not set. HARNESS_TARGET=live needs the numeric id of the store to verify: export STORE_ID=<store id>.');
  } else if (!/^\d+$/.test(storeId)) {
    problems.push(`STORE_ID is "${storeId}", not a numeric store id. Set STORE_ID to the store's numeric identifier (the user_id of the OAuth token answer).`);
  }
  const token = env.STORE_ACCESS_TOKEN?.trim() ?? '';
  if (!token) {
    problems.push(
      "STORE_ACCESS_TOKEN is not set. HARNESS_TARGET=live needs the store's access token: export STORE_ACCESS_TOKEN=<token> (it is never printed).",
    );
  } else if (/\s/.test(token)) {
    problems.push('STORE_ACCESS_TOKEN contains white space. Set it to the bare token, without the "bearer " prefix.');
  }
  const userAgent = env.STORE_USER_AGENT?.trim() ?? '';
  if (!userAgent) {
    problems.push(
      'STORE_USER_AGENT is not set. The Store API answers 400 without a User-Agent naming the app and a contact: export STORE_USER_AGENT="My app (https://example.com/contact)".',
    );
  }
  if (/^\d+$/.test(storeId)) checkAllowlisted(env, storeId, problems);
  const allowWrites = readFlag(env, 'STORE_ALLOW_WRITES', problems);
  const storefrontUrl = readStorefrontUrl(env, problems);
  const install = readLiveInstall(env, problems);
  const secondStore = readSecondStore(env, storeId, problems);
  const teamSandboxes = readTeamSandboxes(env, problems);
  if (!apiUrl || !storeId || !token || !userAgent) return undefined;
  return { mode: 'live', apiUrl, storeId, token, userAgent, allowWrites, storefrontUrl, install, secondStore, teamSandboxes };
}

const TEAM_SANDBOXES_EXAMPLE = '{"store-product-sync": {"storeId": "123456", "token": "<that app\'s token>", "userAgent": "Product sync (ops@example.com)"}}';

/**
 * STORE_TEAM_SANDBOXES: a JSON object, consumer name → {storeId, token, userAgent?, apiUrl?}. Each store must be
 * allow-listed like STORE_ID; an apiUrl is held to what STORE_API_URL is. What is wrong is said by consumer and member,
 * never with a token.
 */
function readTeamSandboxes(env: Env, problems: string[]): Readonly<Record<string, LiveTeamSandbox>> | undefined {
  const raw = env.STORE_TEAM_SANDBOXES?.trim();
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problems.push(`STORE_TEAM_SANDBOXES is not JSON. Set it to an object of consumer names, e.g. ${TEAM_SANDBOXES_EXAMPLE} (docs/live.md).`);
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push(`STORE_TEAM_SANDBOXES is not a JSON object of consumer names, e.g. ${TEAM_SANDBOXES_EXAMPLE} (docs/live.md).`);
    return undefined;
  }
  const listed = (env.LIVE_STORE_ALLOWLIST?.trim() ?? '').split(/[\s,]+/).filter(Boolean);
  const sandboxes: Record<string, LiveTeamSandbox> = {};
  for (const [consumer, entry] of Object.entries(parsed)) {
    const { storeId, token, userAgent, apiUrl } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const id = typeof storeId === 'number' ? String(storeId) : storeId;
    const urlProblems: string[] = [];
    const url =
      apiUrl === undefined
        ? undefined
        : typeof apiUrl === 'string'
          ? readLiveUrl({ apiUrl }, 'apiUrl', DEFAULT_STORE_API_URL, urlProblems)
          : (urlProblems.push('apiUrl, when given, must be the URL its store API is served from'), undefined);
    const bad = [
      ...urlProblems,
      typeof id !== 'string' || !/^\d+$/.test(id) ? 'storeId must be the numeric id of its sandbox store' : undefined,
      typeof token !== 'string' || !token.trim() || /\s/.test(token.trim()) ? "token must be the team app's bare access token" : undefined,
      userAgent !== undefined && (typeof userAgent !== 'string' || !userAgent.trim()) ? 'userAgent, when given, must name the app and a contact' : undefined,
      typeof id === 'string' && /^\d+$/.test(id) && !listed.includes(id)
        ? `its store ${id} is not in LIVE_STORE_ALLOWLIST: add it there if it is a sandbox the nightly may touch`
        : undefined,
    ].filter((text): text is string => text !== undefined);
    if (bad.length > 0) {
      problems.push(`STORE_TEAM_SANDBOXES["${consumer}"]: ${bad.join('; ')} (docs/live.md).`);
      continue;
    }
    sandboxes[consumer] = {
      storeId: id as string,
      token: (token as string).trim(),
      ...(typeof userAgent === 'string' ? { userAgent: userAgent.trim() } : {}),
      ...(url ? { apiUrl: url } : {}),
    };
  }
  return sandboxes;
}

/**
 * STORE_SECOND_ID and STORE_SECOND_ACCESS_TOKEN: both or neither. The id must be another store than STORE_ID and,
 * like it, listed in LIVE_STORE_ALLOWLIST: the scope checks send requests to it.
 */
function readSecondStore(env: Env, storeId: string, problems: string[]): LiveSecondStore | undefined {
  const id = env.STORE_SECOND_ID?.trim() || undefined;
  const token = env.STORE_SECOND_ACCESS_TOKEN?.trim() || undefined;
  if (id === undefined && token === undefined) return undefined;
  if ((id === undefined) !== (token === undefined)) {
    problems.push(
      `${id ? 'STORE_SECOND_ACCESS_TOKEN' : 'STORE_SECOND_ID'} is not set, but ${id ? 'STORE_SECOND_ID' : 'STORE_SECOND_ACCESS_TOKEN'} is. Set both (a second sandbox store's id and its access token) to check that a token reaches only its own store, or neither.`,
    );
    return undefined;
  }
  if (!/^\d+$/.test(id!)) {
    problems.push(`STORE_SECOND_ID is "${id}", not a numeric store id. Set it to a second sandbox store's numeric identifier.`);
    return undefined;
  }
  if (/\s/.test(token!)) {
    problems.push('STORE_SECOND_ACCESS_TOKEN contains white space. Set it to the bare token, without the "bearer " prefix.');
    return undefined;
  }
  if (id === storeId) {
    problems.push(`STORE_SECOND_ID is STORE_ID (${id}). Set it to another sandbox store, whose data STORE_ACCESS_TOKEN must not reach.`);
    return undefined;
  }
  const listed = (env.LIVE_STORE_ALLOWLIST?.trim() ?? '').split(/[\s,]+/).filter(Boolean);
  if (listed.length > 0 && !listed.includes(id!)) {
    problems.push(
      `STORE_SECOND_ID ${id} is not in LIVE_STORE_ALLOWLIST (${listed.join(', ')}): the live run is refused. If store ${id} is a sandbox you may test against, add it to LIVE_STORE_ALLOWLIST; otherwise fix STORE_SECOND_ID.`,
    );
    return undefined;
  }
  return { storeId: id!, token: token! };
}

function readLiveInstall(env: Env, problems: string[]): LiveInstallConfig | undefined {
  const authUrl = readLiveUrl(env, 'STORE_AUTH_URL', DEFAULT_STORE_AUTH_URL, problems);
  const appId = env.STORE_APP_ID?.trim() || undefined;
  const appSecret = env.STORE_APP_SECRET?.trim() || undefined;
  if ((appId === undefined) !== (appSecret === undefined)) {
    problems.push(
      `${appId ? 'STORE_APP_SECRET' : 'STORE_APP_ID'} is not set, but ${appId ? 'STORE_APP_ID' : 'STORE_APP_SECRET'} is. Set both (the app's id and client secret from the partner panel) to check the token endpoint on live, or neither.`,
    );
  }
  if (appId !== undefined && !/^\d+$/.test(appId))
    problems.push(`STORE_APP_ID is "${appId}", not a numeric app id. Set it to the app's id from the partner panel.`);
  return authUrl ? { authUrl, appId, appSecret } : undefined;
}

/**
 * LIVE_STORE_ALLOWLIST: the store ids a live run may touch (comma or space
 * separated). A live run against any other store is refused before a request
 * is sent: a mistyped STORE_ID must never reach a merchant's real shop.
 */
function checkAllowlisted(env: Env, storeId: string, problems: string[]): void {
  const raw = env.LIVE_STORE_ALLOWLIST?.trim() ?? '';
  const listed = raw.split(/[\s,]+/).filter(Boolean);
  const notIds = listed.filter((id) => !/^\d+$/.test(id));
  if (listed.length === 0) {
    problems.push(
      `LIVE_STORE_ALLOWLIST is not set. A live run only touches the stores listed there, so a wrong STORE_ID never reaches a real shop: export LIVE_STORE_ALLOWLIST=${storeId} (comma-separated for several sandbox stores).`,
    );
  } else if (notIds.length > 0) {
    problems.push(`LIVE_STORE_ALLOWLIST lists "${notIds.join('", "')}", which are not numeric store ids. List the sandbox stores' ids, comma-separated.`);
  } else if (!listed.includes(storeId)) {
    problems.push(
      `STORE_ID ${storeId} is not in LIVE_STORE_ALLOWLIST (${listed.join(', ')}): the live run is refused. If store ${storeId} is a sandbox you may test against, add it to LIVE_STORE_ALLOWLIST; otherwise fix STORE_ID.`,
    );
  }
}

/**
 * LIVE_REQUEST_BUDGET: what a whole live run may send to both APIs. The
 * default is about three times a full `npm run verify` on live (681 requests
 * counted, 716 on the wire, against the twins as a live target): room for
 * retries and a larger catalogue, not for a runaway loop.
 * src/reporters/RequestBudgetReporter.ts sums and enforces it.
 */
function readLiveRequestBudget(env: Env, problems: string[]): number {
  const raw = env.LIVE_REQUEST_BUDGET?.trim();
  if (!raw) return DEFAULT_LIVE_REQUEST_BUDGET;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    problems.push(
      `LIVE_REQUEST_BUDGET is "${raw}", not a number of requests. Set LIVE_REQUEST_BUDGET to a whole number above 0 (the requests a live run may send to both APIs together), or unset it for ${DEFAULT_LIVE_REQUEST_BUDGET}.`,
    );
    return DEFAULT_LIVE_REQUEST_BUDGET;
  }
  return Number(raw);
}

/** STOREFRONT_URL: optional; when set, an http(s) URL of a product page with at least two variants. */
function readStorefrontUrl(env: Env, problems: string[]): string | undefined {
  const raw = env.STOREFRONT_URL?.trim();
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url && (url.username || url.password)) {
    problems.push('STOREFRONT_URL carries credentials in the URL. Remove them: a product page is public.');
    return undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    problems.push(
      `STOREFRONT_URL is "${raw}", not an http(s) URL. Set it to a product page of the store with at least two variants, e.g. STOREFRONT_URL=https://<shop>.mitiendanube.com/productos/<handle>/, or unset it to skip the storefront checks on live.`,
    );
    return undefined;
  }
  return url.href;
}

function readTwinMedia(env: Env, problems: string[]): TwinMediaConfig {
  const port = readPort(env, 'KITSU_TWIN_PORT', DEFAULT_KITSU_TWIN_PORT, problems);
  const twinUrl = `http://${TWIN_HOST}:${port}`;
  return { mode: 'twin', twinUrl, port, apiUrl: `${twinUrl}/api/edge`, allowWrites: true };
}

function readLiveMedia(env: Env, problems: string[]): LiveMediaConfig | undefined {
  const apiUrl = readLiveUrl(env, 'KITSU_API_URL', DEFAULT_KITSU_API_URL, problems);
  if (apiUrl && !apiUrl.endsWith('/api/edge')) {
    problems.push(`KITSU_API_URL is "${apiUrl}": the edge API's base ends in /api/edge, for example ${DEFAULT_KITSU_API_URL}.`);
    return undefined;
  }
  const token = env.KITSU_ACCESS_TOKEN?.trim() || undefined;
  if (token && /\s/.test(token)) problems.push('KITSU_ACCESS_TOKEN contains white space. Set it to the bare token, without the "Bearer " prefix.');
  const allowWrites = readFlag(env, 'KITSU_ALLOW_WRITES', problems);
  return apiUrl ? { mode: 'live', apiUrl, token, allowWrites } : undefined;
}

/** A live base URL: https only, except loopback hosts so a local twin or proxy can stand in. */
export function readLiveUrl(env: Env, name: string, fallback: string, problems: string[]): string | undefined {
  const raw = env[name]?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`${name} is "${raw}", not a URL. Set ${name} to the service's base URL, for example ${fallback}.`);
    return undefined;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    problems.push(
      `${name} is "${url.origin}": live targets are reached over TLS only. Use an https:// URL (plain http is accepted only for loopback hosts such as 127.0.0.1).`,
    );
    return undefined;
  }
  if (url.username || url.password) {
    problems.push(`${name} carries credentials in the URL. Remove them; the token goes in its own variable.`);
    return undefined;
  }
  return url.href.replace(/\/+$/, '');
}

function readFlag(env: Env, name: string, problems: string[]): boolean {
  const raw = env[name]?.trim() ?? '';
  if (raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  problems.push(`${name} is "${raw}". Set ${name}=1 to allow creating, changing and deleting, or 0 / unset to keep the run read-only.`);
  return false;
}

/** The store's API base as the client uses it: {base}/v1/{store_id}. */
export function liveStoreBaseUrl(store: LiveStoreConfig, version: string): string {
  return `${store.apiUrl}/${version}/${store.storeId}`;
}

/** A printable summary with no secrets in it. */
export function describeConfig(config: HarnessConfig): Record<string, string> {
  const { store, media } = config;
  if (store.mode === 'twin' || media.mode === 'twin') {
    return { target: config.target, 'store twin': store.mode === 'twin' ? store.twinUrl : '', 'media twin': media.mode === 'twin' ? media.apiUrl : '' };
  }
  const storePart: Record<string, string> =
    store.mode === 'off'
      ? { store: '(not configured: store checks skipped)' }
      : {
          'store api': store.apiUrl,
          'store id': store.storeId,
          'store token': '(set, not shown)',
          'store writes': store.allowWrites ? 'allowed' : 'read-only',
          storefront: store.storefrontUrl ?? '(STOREFRONT_URL unset: storefront checks skipped)',
          'second store': store.secondStore
            ? `${store.secondStore.storeId}, token set (not shown)`
            : '(STORE_SECOND_ID unset: the scope checks are not verified)',
          'team sandboxes': store.teamSandboxes
            ? Object.entries(store.teamSandboxes)
                .map(([consumer, sandbox]) => `${consumer}: store ${sandbox.storeId}, token set (not shown)`)
                .join('; ') || '(none)'
            : "(STORE_TEAM_SANDBOXES unset: every team's pact is verified with the harness's store and token)",
        };
  const mediaPart: Record<string, string> =
    media.mode === 'off'
      ? { media: '(not configured: media checks skipped)' }
      : {
          'media api': media.apiUrl,
          'media token': media.token ? '(set, not shown)' : '(none: anonymous checks only)',
          'media writes': media.allowWrites ? 'allowed' : 'read-only',
        };
  const budget: Record<string, string> =
    config.liveRequestBudget === undefined ? {} : { 'request budget': `${config.liveRequestBudget} requests (LIVE_REQUEST_BUDGET)` };
  return { target: config.target, ...storePart, ...mediaPart, ...budget };
}

let cached: HarnessConfig | undefined;

/** The process-wide configuration, validated on first use. */
export function harnessConfig(): HarnessConfig {
  cached ??= loadConfig();
  return cached;
}
