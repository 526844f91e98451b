/**
 * `node bench/propertySpeed.ts [cases]`: how fast the properties run on
 * twins started in this process — cases per second of each, and for the
 * bucket model how much virtual time (the bucket's life) it covers per second
 * of wall time. A benchmark, not a test: it asserts nothing and prints figures
 * measured in one run, so ratios between them are meaningful.
 */
import type fc from 'fast-check';
import { startStoreTwin } from '../src/twins/store/server.ts';
import { runProperty } from '../properties/support/propertyRun.ts';
import { twinArena, type StoreArena } from '../properties/support/storeArena.ts';
import { bucketModelProperty } from '../properties/store/rateLimit.property.ts';
import { openTwinBucketWorld } from '../properties/store/bucketWorld.ts';
import { pacerProperty } from '../properties/store/pacer.property.ts';
import { concurrentWritesProperty, outOfRangeProperty, walkProperty } from '../properties/store/pagination.property.ts';
import { localizedNameProperty } from '../properties/store/localized.property.ts';
import { paginationProperty as mediaPagination, concurrentWritesProperty as mediaWrites } from '../properties/media/pagination.property.ts';
import { openMediaArena } from '../properties/support/mediaArena.ts';

const cases = Number(process.argv[2] ?? 200);
if (!Number.isInteger(cases) || cases < 1) {
  console.error(`usage: node bench/propertySpeed.ts [cases]  (cases: a whole number, default 200; got "${process.argv[2]}")`);
  process.exit(2);
}

const twin = await startStoreTwin();
const media = await openMediaArena();
const twinStores: StoreArena = twinArena(twin.url);
const noEnv = { numRuns: undefined, seed: 42, path: undefined };
const started = performance.now();

let virtualMs = 0;
const countingOpen = async () => {
  const buckets = await openTwinBucketWorld(twinStores);
  return { ...buckets, close: () => ((virtualMs += buckets.now()), buckets.close()) };
};

const properties: [string, () => fc.IAsyncProperty<never>][] = [
  [
    'bucket model',
    () => bucketModelProperty({ open: countingOpen, switches: true, maxWaitMs: 30_000, maxCommands: 15, toleranceMs: 0 }) as fc.IAsyncProperty<never>,
  ],
  ['pacer', () => pacerProperty(twinStores) as fc.IAsyncProperty<never>],
  ['store walk', () => walkProperty(twinStores) as fc.IAsyncProperty<never>],
  ['store range', () => outOfRangeProperty(twinStores) as fc.IAsyncProperty<never>],
  ['store writes', () => concurrentWritesProperty(twinStores) as fc.IAsyncProperty<never>],
  ['localized', () => localizedNameProperty(twinStores) as fc.IAsyncProperty<never>],
  ['media paging', () => mediaPagination({ arena: media.arena }) as fc.IAsyncProperty<never>],
  ['media writes', () => mediaWrites(media.arena) as fc.IAsyncProperty<never>],
];

console.log(`property speed on an in-process store twin, ${cases} cases each, seed 42`);
try {
  for (const [name, build] of properties) {
    virtualMs = 0;
    const outcome = await runProperty(build(), { numRuns: cases }, noEnv);
    const perSecond = (outcome.numRuns / outcome.elapsedMs) * 1000;
    let line = `${name.padEnd(13)} ${String(outcome.numRuns).padStart(5)} cases  ${Math.round(outcome.elapsedMs).toString().padStart(6)} ms  ${perSecond.toFixed(1).padStart(7)} cases/s`;
    if (virtualMs > 0)
      line += `  virtual ${(virtualMs / 1000).toFixed(0)} s in ${(outcome.elapsedMs / 1000).toFixed(2)} s wall: x${Math.round(virtualMs / outcome.elapsedMs)}`;
    if (outcome.failed) line += `  FAILED:\n${outcome.report}`;
    console.log(line);
  }
  console.log(`all properties: ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await twin.close();
  await media.close();
}
