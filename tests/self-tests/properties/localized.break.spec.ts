import type fc from 'fast-check';
import { declareStoreTwinBreaks } from '../../../properties/support/twinBreak.ts';
import type { StoreArena } from '../../../properties/support/storeArena.ts';
import { localizedNameProperty } from '../../../properties/store/localized.property.ts';

const nameProperty = (arena: StoreArena) => localizedNameProperty(arena) as fc.IAsyncProperty<never>;

declareStoreTwinBreaks([{ twinBreak: 'string-main-language-only', rule: 'store.localized.string-applies-to-all', property: nameProperty, numRuns: 40 }]);
