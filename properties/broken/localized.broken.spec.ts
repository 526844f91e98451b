import type fc from 'fast-check';
import { declareBrokenStoreTwins } from '../support/brokenTwin.ts';
import type { StoreArena } from '../support/storeArena.ts';
import { localizedNameProperty } from '../store/localized.property.ts';

const nameProperty = (arena: StoreArena) => localizedNameProperty(arena) as fc.IAsyncProperty<never>;

declareBrokenStoreTwins([{ defect: 'string-main-language-only', rule: 'store.localized.string-applies-to-all', property: nameProperty, numRuns: 40 }]);
