/**
 * Pact files as the real Pact tools write them (tests/fixtures/pacts/tools, its README says which tool wrote which
 * shape): pact-jvm 4.1 (V3), pact-python 1.x and pact-js 9 (the Ruby mock service, V2), pact-go v2 (V3) and
 * pact-js 13 (V4) on the Rust core, PactNet 1.x (V1.1) and the V1.1 specification's own example. Each file is
 * proved by Pact's own Verifier, called directly with none of the harness's verification code in between, against
 * the seeded twins: its interactions name seeded ids, so each state is a no-op here. The harness's reader
 * (parsePact) must take every file whole.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Verifier } from '@pact-foundation/pact';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { HARNESS_USER_AGENT } from '../../../src/config/harnessConfig.ts';
import { freePort } from '../../../src/http/freePort.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../../src/twins/store/server.ts';
import { startMediaTwin, type RunningMediaTwin } from '../../../src/twins/media/server.ts';
import { parsePact, specificationVersion } from '../../../contracts/verification/pactFile.ts';

const DIR = 'tests/fixtures/pacts/tools';

/** Each file and the specification version its tool writes into it. */
const FILES: Record<string, string> = {
  'jvm-price-board-store-commerce-api.json': '3.0.0',
  'jvm-anime-card-media-tracking-api.json': '3.0.0',
  'python-catalog-importer-store-commerce-api.json': '2.0.0',
  'python-anime-lookup-media-tracking-api.json': '2.0.0',
  'go-stock-sync-store-commerce-api.json': '3.0.0',
  'go-episode-guide-media-tracking-api.json': '3.0.0',
  'js9-storefront-menu-store-commerce-api.json': '2.0.0',
  'js9-adult-filter-media-tracking-api.json': '2.0.0',
  'js13-catalog-widget-store-commerce-api.json': '4.0',
  'js13-watchlist-web-media-tracking-api.json': '4.0',
  'net-order-desk-store-commerce-api.json': '1.1.0',
  'net-anime-tile-media-tracking-api.json': '1.1.0',
  'spec11-menu-feed-store-commerce-api.json': '1.1.0',
  'spec11-anime-gate-media-tracking-api.json': '1.1.0',
};

type Json = Record<string, unknown>;
interface RawInteraction {
  description: string;
  providerStates?: { name: string }[];
  providerState?: string;
  provider_state?: string;
  request: { path: string; headers?: Record<string, string | string[]> };
}
interface RawPact {
  provider: { name: string };
  interactions: RawInteraction[];
  metadata: Json;
}

const read = (file: string): RawPact => JSON.parse(readFileSync(join(DIR, file), 'utf8')) as RawPact;

/** The states an interaction names, in every spelling the versions have: V3 and V4's list, V2 and V1.1's string, PactNet's provider_state. */
const statesOf = (i: RawInteraction): string[] => [...(i.providerStates ?? []).map((s) => s.name), i.providerState ?? i.provider_state ?? []].flat();

/** The User-Agents a file's requests name (V4 writes each header as a list). */
function userAgents(pact: RawPact): Set<string> {
  return new Set(pact.interactions.flatMap((i) => [i.request.headers?.['User-Agent'] ?? []].flat()));
}

const storeIdIn = (url: string | undefined) => /^\/v1\/(\d+)(?:[/?]|$)/.exec(url ?? '')?.[1];

let store: RunningStoreTwin;
let media: RunningMediaTwin;

// Both twins once for the file, its tests in order on one worker.
test.describe.configure({ mode: 'default' });
test.beforeAll(async () => {
  [store, media] = await Promise.all([startStoreTwin({ port: await freePort() }), startMediaTwin({ port: await freePort() })]);
});
test.afterAll(async () => {
  await Promise.all([store?.close(), media?.close()]);
});

test('the folder holds the fourteen files, one store and one media pact per tool', () => {
  expect(
    readdirSync(DIR)
      .filter((f) => f.endsWith('.json'))
      .sort(),
  ).toEqual(Object.keys(FILES).sort());
  // At least one interaction of each API names no provider state at all.
  const withoutState = Object.keys(FILES)
    .map(read)
    .filter((pact) => pact.interactions.some((i) => statesOf(i).length === 0))
    .map((pact) => pact.provider.name);
  expect([...new Set(withoutState)].sort()).toEqual(['media-tracking-api', 'store-commerce-api']);
});

for (const [file, version] of Object.entries(FILES)) {
  test(`${file}: every interaction holds against the seeded twins, by Pact's own Verifier`, async () => {
    const pact = read(file);
    expect(specificationVersion(pact.metadata)).toBe(version);
    // The harness's reader takes the file as its tool wrote it.
    expect(parsePact(pact, file, 'team').count).toBe(pact.interactions.length);

    // Each file from the seed: a write in one file cannot change what another sees.
    for (const twin of [store, media]) expect((await fetch(`${twin.url}/__twin/reset`, { method: 'POST' })).status).toBe(200);

    const named = userAgents(pact);
    const output = await new Verifier({
      provider: pact.provider.name,
      providerBaseUrl: pact.provider.name === 'store-commerce-api' ? store.url : media.url,
      pactUrls: [join(process.cwd(), DIR, file)],
      logLevel: 'error',
      stateHandlers: Object.fromEntries(pact.interactions.flatMap(statesOf).map((name) => [name, async () => {}])),
      // The store's token for the store the path names, in place of the pact's placeholder.
      requestFilter: (req: IncomingMessage, _res: ServerResponse, next: () => void) => {
        const storeId = storeIdIn(req.url);
        if (storeId) {
          req.headers['authentication'] = `bearer twin-token-${storeId}`;
          if (!named.has(String(req.headers['user-agent']))) req.headers['user-agent'] = HARNESS_USER_AGENT;
        }
        next();
      },
    }).verifyProvider();
    // Its report names every interaction of the file, each verified: none was left unread.
    const report = JSON.parse(output) as { result: boolean; interactionResults: { description: string; result: string }[] };
    expect(report.result).toBe(true);
    expect(report.interactionResults.map((r) => [r.description, r.result]).sort()).toEqual(pact.interactions.map((i) => [i.description, 'OK']).sort());
  });
}
