import type fc from 'fast-check';
import { declareStoreTwinBreaks } from '../../../properties/support/twinBreak.ts';
import type { StoreArena } from '../../../properties/support/storeArena.ts';
import { walkProperty } from '../../../properties/store/pagination.property.ts';
import { FOLLOW, RELS } from '../../../properties/store/pagination/oracle.ts';

const walk = (arena: StoreArena) => walkProperty(arena) as fc.IAsyncProperty<never>;

// Each break shows once a case has two pages or more, which about half the cases have.
declareStoreTwinBreaks([
  { twinBreak: 'page-drops-item', rule: FOLLOW, property: walk, numRuns: 40 },
  { twinBreak: 'page-repeats-item', rule: FOLLOW, property: walk, numRuns: 40 },
  { twinBreak: 'wrong-last-link', rule: RELS, property: walk, numRuns: 40 },
]);
