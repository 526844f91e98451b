/**
 * `npm run replay-server`: serves the recordings (RECORDINGS_DIR, default
 * recordings/) over HTTP for clients outside the test process: Pact's
 * Verifier, the `kitsu` npm client, your own app. The store on
 * REPLAY_STORE_PORT (default 4410), the media API on REPLAY_MEDIA_PORT
 * (default 4420), both on 127.0.0.1, until Ctrl-C. See
 * src/recording/replayServer.ts for how requests are answered.
 */
import { ConfigError } from '../src/config/ConfigError.ts';
import { readPort, readRecordedTarget, type RecordedTarget } from '../src/config/harnessConfig.ts';
import type { RecordingApi } from '../src/recording/cassette.ts';
import { CASSETTE_HEADER, cassettesOf, REPLAY_HEADER, startReplayServer, type ReplayServer } from '../src/recording/replayServer.ts';
import { processEnv, recordingsDir } from '../src/config/env.ts';

const PORTS = {
  store: { variable: 'REPLAY_STORE_PORT', fallback: 4410 },
  media: { variable: 'REPLAY_MEDIA_PORT', fallback: 4420 },
} as const;

async function main(): Promise<number> {
  const root = recordingsDir();
  const ports = readPorts();
  if (!ports) return 2;
  const apis = (['store', 'media'] as const).filter((api) => cassettesOf(root, api).length > 0);
  if (apis.length === 0) {
    console.error(
      `replay-server: no recordings under ${root}/ (no ${root}/store/**/*.raw.json or ${root}/media/**/*.raw.json). ` +
        'Record them first (npm run record), or set RECORDINGS_DIR to a directory that holds recordings.',
    );
    return 2;
  }
  // What the recording was made with: the store id and User-Agent a client must send for its requests to match.
  const target = readRecordedTarget(root, []);

  const servers = await startServers(root, apis, ports);
  if (!servers) return 2;
  printUsage(root, servers, target);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await Promise.all([...servers.values()].map((s) => s.close()));
  console.log('replay-server: stopped');
  return 0;
}

/** REPLAY_STORE_PORT and REPLAY_MEDIA_PORT; undefined (the problems printed) when either is not a port. */
function readPorts(): Record<RecordingApi, number> | undefined {
  const problems: string[] = [];
  const ports = {
    store: readPort(processEnv(), PORTS.store.variable, PORTS.store.fallback, problems),
    media: readPort(processEnv(), PORTS.media.variable, PORTS.media.fallback, problems),
  };
  if (problems.length === 0) return ports;
  console.error(new ConfigError(problems).message);
  return undefined;
}

/** A server per API with recordings; when one cannot start, the others are closed again and undefined (the reason printed). */
async function startServers(
  root: string,
  apis: readonly RecordingApi[],
  ports: Record<RecordingApi, number>,
): Promise<Map<RecordingApi, ReplayServer> | undefined> {
  const servers = new Map<RecordingApi, ReplayServer>();
  for (const api of apis) {
    try {
      servers.set(api, await startReplayServer({ root, api, port: ports[api] }));
    } catch (error) {
      await Promise.all([...servers.values()].map((s) => s.close()));
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        console.error(
          `replay-server: port ${ports[api]} (${api}) is taken, maybe by a replay server already running. ` +
            `Stop what holds it, or set ${PORTS[api].variable} to a free port.`,
        );
        return undefined;
      }
      console.error(`replay-server: ${(error as Error).message}`);
      return undefined;
    }
  }
  return servers;
}

/** What is served where, the variables a client needs, and how a request is matched. */
function printUsage(root: string, servers: ReadonlyMap<RecordingApi, ReplayServer>, target: RecordedTarget | undefined): void {
  console.log(`replay-server: serving the recordings in ${root}/`);
  for (const api of ['store', 'media'] as const) {
    const server = servers.get(api);
    if (!server) console.log(`  ${api}: not served (no recordings under ${root}/${api}/)`);
    else console.log(`  ${api}: ${server.url} (${cassettesOf(root, api).length} cassettes)`);
  }
  console.log('\nPoint a client at it:');
  for (const line of clientSettings(servers, target)) console.log(`  ${line}`);
  console.log(
    `\nA request matches a recording by method, path and query, body and the headers in contracts/<api>/normalisation.json "requestHeaders";\n` +
      `repeated requests are answered in recorded order, then from the start again. ${CASSETTE_HEADER}: <path under ${root}/> answers from that cassette only.\n` +
      `A request nothing was recorded for gets 501 with ${REPLAY_HEADER}: miss, naming the closest recorded request (also logged here).\n` +
      'Ctrl-C stops.',
  );
}

/** The variables that point the harness (or any client built on them) at the servers, with the values the recording was made with. */
function clientSettings(servers: ReadonlyMap<RecordingApi, ReplayServer>, target: RecordedTarget | undefined): string[] {
  const lines: string[] = [];
  const store = servers.get('store');
  const recordedStore = target?.store.mode === 'live' ? target.store : undefined;
  const recordedMedia = target?.media.mode === 'live' ? target.media : undefined;
  if (store) {
    const base = `${store.url}${recordedStore ? pathOf(recordedStore.apiUrl) : ''}`;
    lines.push(`STORE_API_URL=${base}   (the store API is under ${base}/v1/${recordedStore?.storeId ?? '<store id>'})`);
    if (recordedStore) {
      lines.push(`STORE_ID=${recordedStore.storeId}`);
      lines.push(`STORE_USER_AGENT='${recordedStore.userAgent}'   (compared: send the recorded one)`);
      lines.push(`STORE_ACCESS_TOKEN=<the token recorded with, or its stand-in ${recordedStore.token}>`);
    }
  }
  const media = servers.get('media');
  if (media) {
    lines.push(`KITSU_API_URL=${media.url}${recordedMedia ? pathOf(recordedMedia.apiUrl) : '/api/edge'}`);
    if (recordedMedia?.token) lines.push(`KITSU_ACCESS_TOKEN=<the token recorded with, or its stand-in ${recordedMedia.token}>   (signed-in requests only)`);
  }
  return lines;
}

/** The path of a recorded base URL after its origin (the recorded origin is what the server stands in for). */
function pathOf(url: string): string {
  return new URL(url).pathname.replace(/\/+$/, '');
}

process.exit(await main());
