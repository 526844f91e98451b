import type fc from 'fast-check';
import { declareStoreTwinBreaks } from '../../../properties/support/twinBreak.ts';
import type { StoreArena } from '../../../properties/support/storeArena.ts';
import { openTwinBucketWorld } from '../../../properties/store/bucketWorld.ts';
import { bucketModelProperty } from '../../../properties/store/rateLimit.property.ts';

const bucketProperty = (arena: StoreArena) =>
  bucketModelProperty({
    open: () => openTwinBucketWorld(arena),
    switches: true,
    maxWaitMs: 30_000,
    maxCommands: 15,
    toleranceMs: 0,
  }) as fc.IAsyncProperty<never>;

declareStoreTwinBreaks([
  { twinBreak: 'bucket-leaks-fast', rule: 'store.ratelimit.leak-rate', property: bucketProperty, numRuns: 200 },
  { twinBreak: 'bucket-off-by-one', rule: 'store.ratelimit.bucket-429', property: bucketProperty, numRuns: 200 },
]);
