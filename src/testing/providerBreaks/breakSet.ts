/**
 * The breaks and deviations of both APIs as one set: the project's own
 * (storeBreaks.ts, mediaBreaks.ts, storeDeviations.ts, mediaDeviations.ts), or
 * a held-out set a reviewer keeps outside the project (`npm run breaks --
 * --held-out <file>`), checked the same way: every rule id a break names must
 * exist in that API's catalogue (src/rules), and names are unique per API.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { ProviderBreak, ProviderDeviation } from './breakingProxy.ts';
import type { RuleCatalogue } from '../../rules/Rule.ts';
import { CATALOGUES } from '../../rules/catalogues.ts';
import { STORE_BREAKS } from './storeBreaks.ts';
import { MEDIA_BREAKS } from './mediaBreaks.ts';
import { STORE_DEVIATIONS } from './storeDeviations.ts';
import { MEDIA_DEVIATIONS } from './mediaDeviations.ts';

export const APIS = ['store', 'media'] as const;
export type Api = (typeof APIS)[number];

export interface ApiChanges<A extends Api> {
  readonly breaks?: Readonly<Record<string, ProviderBreak<A>>>;
  readonly deviations?: Readonly<Record<string, ProviderDeviation>>;
}

/** Breaks and deviations per API; either may be left out. */
export interface BreakSet {
  readonly store?: ApiChanges<'store'>;
  readonly media?: ApiChanges<'media'>;
}

export const PROJECT_SET: BreakSet = {
  store: { breaks: STORE_BREAKS, deviations: STORE_DEVIATIONS },
  media: { breaks: MEDIA_BREAKS, deviations: MEDIA_DEVIATIONS },
};

/** What is wrong with a set, one line each: rule ids no catalogue has, breaks without rules, names used twice. */
export function problemsOf(set: BreakSet, catalogues: Readonly<Record<string, RuleCatalogue>> = CATALOGUES, alongside: BreakSet[] = []): string[] {
  const problems: string[] = [];
  for (const api of APIS) {
    const changes = set[api];
    const catalogue = catalogues[api];
    if (!changes) continue;
    if (!catalogue) {
      problems.push(`${api}: no rule catalogue of that name`);
      continue;
    }
    const taken = new Set(alongside.flatMap((other) => [...Object.keys(other[api]?.breaks ?? {}), ...Object.keys(other[api]?.deviations ?? {})]));
    for (const [name, brk] of Object.entries(changes.breaks ?? {})) {
      if (brk.rules.length === 0) problems.push(`${api} break ${name}: names no rule it breaks`);
      for (const id of brk.rules) if (!catalogue[id]) problems.push(`${api} break ${name}: no rule ${id} in the ${api} catalogue (src/rules)`);
      if (!['contract', 'reliance'].includes(brk.kind)) problems.push(`${api} break ${name}: kind ${String(brk.kind)} is neither contract nor reliance`);
      if (!brk.onRequest && !brk.onResponse) problems.push(`${api} break ${name}: changes nothing (no onRequest, no onResponse)`);
      if (taken.has(name)) problems.push(`${api} break ${name}: the name is taken by another set`);
    }
    for (const [name, deviation] of Object.entries(changes.deviations ?? {})) {
      if (name in (changes.breaks ?? {})) problems.push(`${api} deviation ${name}: a break has the same name`);
      if (!deviation.onRequest && !deviation.onResponse) problems.push(`${api} deviation ${name}: changes nothing (no onRequest, no onResponse)`);
      if (taken.has(name)) problems.push(`${api} deviation ${name}: the name is taken by another set`);
    }
  }
  return problems;
}

/**
 * A held-out set from a module outside the project: its default export, or its
 * export HELD_OUT, shaped as BreakSet. Throws when the module has neither.
 */
export async function loadHeldOut(file: string): Promise<BreakSet> {
  const module = (await import(pathToFileURL(resolve(file)).href)) as { default?: BreakSet; HELD_OUT?: BreakSet };
  const set = module.HELD_OUT ?? module.default;
  if (!set || typeof set !== 'object')
    throw new Error(`${file} exports no held-out set: export default (or export const HELD_OUT) { store: { breaks, deviations }, media: { ... } }`);
  return set;
}
