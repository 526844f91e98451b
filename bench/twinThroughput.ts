/**
 * `npm run bench -- throughput` (or `node bench/twinThroughput.ts`): requests
 * per second and latency of each twin on a list and a single-resource
 * endpoint, side by side in one run with (a) a bare Node HTTP server replaying
 * the twin's exact answer (status, headers, body bytes): the limit for a Node
 * server here, and (b) Prism mocking the same endpoint from the API's OpenAPI
 * document. Each server runs in a child process of its own; autocannon runs in
 * this one. Target: the twins within 2x of the bare server and ahead of Prism.
 * A benchmark, not a test: it prints figures measured in one run, and ratios.
 */
import { captureAnswer } from './lib/capturedAnswer.ts';
import { benchEnv } from './lib/benchEnv.ts';
import { CHILD_ENTRIES, forkServer, stopChild } from './lib/childProcesses.ts';
import { OPENAPI_DOCUMENTS, startPrism } from './lib/prismMock.ts';
import { fixed, printTable, progress, ratio, verdict } from './lib/report.ts';
import { isClean, runAutocannon, type LoadResult } from './lib/runAutocannon.ts';
import { prepareTarget, type TwinApi } from './lib/twinTargets.ts';

const CONNECTIONS = 10;
const WARM_UP_SECONDS = 1;
const ENDPOINTS = ['list', 'single'] as const;
const SERVERS = ['twin', 'bare', 'Prism'] as const;

type Endpoint = (typeof ENDPOINTS)[number];
type Server = (typeof SERVERS)[number];

interface Row {
  readonly api: TwinApi;
  readonly endpoint: Endpoint;
  readonly server: Server;
  readonly result?: LoadResult;
  /** Why the row was not measured. */
  readonly skipped?: string;
}

/** A short warm-up (JIT, keep-alive sockets, the twin's caches), then the measured run. */
async function measure(url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult> {
  await runAutocannon({ url, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, headers });
  return runAutocannon({ url, connections: CONNECTIONS, seconds, headers });
}

/**
 * One API's rows: the twin, the bare server with the twin's answers, and Prism, each endpoint on each. Kept whole:
 * every server it starts is stopped by its finally, newest first, whichever step fails.
 */
async function benchApi(api: TwinApi, seconds: number): Promise<Row[]> {
  progress(`${api}: starting the twin`);
  const twin = await forkServer(CHILD_ENTRIES.twin, [api]);
  const stops = [() => stopChild(twin.child)];
  try {
    const target = await prepareTarget(api, twin.url);
    const paths: Record<Endpoint, string> = { list: target.list, single: target.single };
    const answers = await Promise.all(ENDPOINTS.map((endpoint) => captureAnswer(twin.url, paths[endpoint], target.headers)));
    progress(
      `${api}: starting the bare server with the twin's answers (${answers.map((a) => `${a.status}, ${fixed(Buffer.byteLength(a.bodyBase64, 'base64') / 1024, 1)} KB`).join('; ')})`,
    );
    const bare = await forkServer(CHILD_ENTRIES.replay, [], { init: answers });
    stops.push(() => stopChild(bare.child));
    progress(`${api}: starting Prism on ${OPENAPI_DOCUMENTS[api]}`);
    const prism = await startPrism(OPENAPI_DOCUMENTS[api]);
    if (prism.kind === 'running') stops.push(() => stopChild(prism.child));
    else progress(`${api}: Prism skipped: ${prism.reason}`);

    const rows: Row[] = [];
    for (const endpoint of ENDPOINTS) {
      const path = paths[endpoint];
      const prismPath = prism.kind === 'running' ? prism.pathFor(path) : undefined;
      const origins: Record<Server, string | { skipped: string }> = {
        twin: twin.url,
        bare: bare.url,
        Prism:
          prism.kind === 'skipped'
            ? { skipped: prism.reason }
            : prismPath === undefined
              ? { skipped: `the OpenAPI document has no path for ${path}` }
              : prism.url,
      };
      for (const server of SERVERS) {
        const origin = origins[server];
        const serverPath = server === 'Prism' ? (prismPath ?? path) : path;
        if (typeof origin !== 'string') {
          rows.push({ api, endpoint, server, skipped: origin.skipped });
          continue;
        }
        progress(`${api} ${endpoint} on ${server}: ${WARM_UP_SECONDS} s warm-up + ${seconds} s, ${CONNECTIONS} connections, GET ${serverPath}`);
        rows.push({ api, endpoint, server, result: await measure(`${origin}${serverPath}`, target.headers, seconds) });
      }
    }
    return rows;
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/** A latency for ratios: autocannon counts whole milliseconds, so 0 means under 1 ms. */
function p99Of(result: LoadResult): number {
  return Math.max(result.p99Ms, 1);
}

/** The figure of a valid row (nothing refused, nothing failed), else undefined: an invalid row is no measurement. */
function valid(row: Row | undefined): LoadResult | undefined {
  return row?.result && isClean(row.result) ? row.result : undefined;
}

function refusals(result: LoadResult): string {
  const statuses = Object.entries(result.byStatus).filter(([status]) => !status.startsWith('2'));
  return result.non2xx === 0 ? '0' : `${result.non2xx} (${statuses.map(([status, count]) => `${status}: ${count}`).join(', ')})`;
}

function tableRow(row: Row, rows: readonly Row[]): string[] {
  const label = [row.api, row.endpoint, row.server];
  if (!row.result) return [...label, 'skipped', '', '', '', '', '', '', '', '', ''];
  const r = row.result;
  const cells = [...label, fixed(r.reqPerSec, 0), fixed(r.p50Ms, 0), fixed(r.p99Ms, 0), fixed(r.kbPerAnswer, 1), refusals(r), String(r.errors)];
  if (row.server !== 'twin') return [...cells, '', '', '', ''];
  const twin = valid(row);
  const other = (server: Server): LoadResult | undefined => valid(rows.find((o) => o.api === row.api && o.endpoint === row.endpoint && o.server === server));
  const bare = other('bare');
  const prism = other('Prism');
  return [
    ...cells,
    ratio(twin?.reqPerSec, bare?.reqPerSec),
    ratio(twin && p99Of(twin), bare && p99Of(bare)),
    ratio(twin?.reqPerSec, prism?.reqPerSec),
    ratio(twin && p99Of(twin), prism && p99Of(prism)),
  ];
}

/** One line per endpoint: the two targets, MET or MISSED, or why they could not be judged. */
function targetLine(api: TwinApi, endpoint: Endpoint, rows: readonly Row[]): string {
  const find = (server: Server): Row | undefined => rows.find((r) => r.api === api && r.endpoint === endpoint && r.server === server);
  const judge = (server: Server, met: (twin: LoadResult, other: LoadResult) => boolean): string => {
    const twinRow = find('twin');
    const otherRow = find(server);
    if (!otherRow?.result) return 'not measured (skipped, see below)';
    const twin = valid(twinRow);
    const other = valid(otherRow);
    if (!twin || !other) return `not judged: ${!twin ? 'the twin' : server} row has refusals or errors, so it is no measurement`;
    return `${verdict(met(twin, other))} (req/s ${ratio(twin.reqPerSec, other.reqPerSec)}, p99 ${ratio(p99Of(twin), p99Of(other))})`;
  };
  const withinTwiceBare = judge('bare', (twin, bare) => twin.reqPerSec * 2 >= bare.reqPerSec && p99Of(twin) <= p99Of(bare) * 2);
  const aheadOfPrism = judge('Prism', (twin, prism) => twin.reqPerSec > prism.reqPerSec && p99Of(twin) <= p99Of(prism));
  return `${api} ${endpoint}: within 2x of bare: ${withinTwiceBare}; ahead of Prism: ${aheadOfPrism}`;
}

export async function twinThroughput(): Promise<void> {
  const { seconds } = benchEnv();
  const rows: Row[] = [];
  for (const api of ['store', 'media'] as const) rows.push(...(await benchApi(api, seconds)));

  console.log(`\n### Twin throughput: ${CONNECTIONS} connections, ${WARM_UP_SECONDS} s warm-up + ${seconds} s per row\n`);
  printTable(
    [
      'API',
      'endpoint',
      'server',
      'req/s',
      'p50 ms',
      'p99 ms',
      'KB/answer',
      'non-2xx',
      'errors',
      'req/s twin/bare',
      'p99 twin/bare',
      'req/s twin/Prism',
      'p99 twin/Prism',
    ],
    rows.map((row) => tableRow(row, rows)),
  );
  console.log(
    "\nLatencies are of 2xx answers, in whole milliseconds (autocannon's resolution): a p99 under 1 ms counts as 1 ms, and a ratio against 1 or 2 ms is coarse.",
  );
  console.log('Targets: within 2x of bare = at least half its req/s and at most twice its p99; ahead of Prism = more req/s and a p99 no higher.');
  for (const api of ['store', 'media'] as const) for (const endpoint of ENDPOINTS) console.log(targetLine(api, endpoint, rows));
  for (const row of rows) {
    if (row.result && !isClean(row.result))
      console.log(`INVALID: ${row.api} ${row.endpoint} on ${row.server} had refusals or errors; its figures are no measurement.`);
  }
  const skipped = new Set(rows.flatMap((row) => (row.skipped ? [`${row.api} on ${row.server}: ${row.skipped}`] : [])));
  for (const reason of skipped) console.log(`Skipped: ${reason}`);
  console.log("The bare server and the twin send the same bytes; Prism sends its document's example, so compare KB/answer before reading its ratios.");
}

if (import.meta.main) await twinThroughput();
