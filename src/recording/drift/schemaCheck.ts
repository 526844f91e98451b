/**
 * Recorded answers held to their routes' JSON Schemas: every stored recording
 * on its own (checkRecordings), and each fresh answer of a comparison, as
 * contract-break findings.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { liveStoreBaseUrl } from '../../config/harnessConfig.ts';
import type { Exchange } from '../../http/Exchange.ts';
import { STORE_CONTRACT } from '../../rules/storeContract.ts';
import { schemaBreachOf, type RouteSchemas } from '../../schemas/schemaBreaches.ts';
import { CONTRACT_ROUTES } from '../../schemas/contractRoutes.ts';
import { listCassettes, readCassette, RECORDING_APIS, requestLine, type Interaction, type RecordingApi } from '../cassette.ts';
import { readRecordedTarget } from '../../config/harnessConfig.ts';
import type { DriftFinding, RecordingBreach } from './findings.ts';
import { apiOf } from './load.ts';

/** Where the API's paths start in a recording under root, and the schema of each route. */
export function recordedRouteSchemas(root: string, api: RecordingApi): RouteSchemas {
  if (api === 'media') return CONTRACT_ROUTES.media;
  const target = existsSync(join(root, 'target.json')) ? readRecordedTarget(root, []) : undefined;
  // Without target.json, any store id.
  if (target?.store.mode !== 'live') return CONTRACT_ROUTES.store;
  return { ...CONTRACT_ROUTES.store, basePath: new URL(liveStoreBaseUrl(target.store, STORE_CONTRACT.version)).pathname };
}

/** A recorded interaction as the clients' Exchange record, the shape schemaBreaches checks. */
export function interactionExchange(i: Interaction): Pick<Exchange, 'request' | 'response'> {
  const body = i.response === undefined ? '' : typeof i.response === 'string' ? i.response : JSON.stringify(i.response);
  return {
    request: { method: i.method, url: `${i.scope}${i.path}`, headers: i.reqheaders },
    response: { status: i.status, headers: i.rawHeaders, body },
  };
}

export interface SchemaIssueLine {
  /** JSON Pointer of the issue; undefined when the breach names none (a body that is not JSON). */
  pointer?: string;
  message: string;
}

export interface InteractionBreach {
  text: string;
  schema?: string;
  issues: SchemaIssueLine[];
}

/** The breach of one interaction, with its issues as schemaBreachOf gives them. */
export function interactionBreach(i: Interaction, routes: RouteSchemas): InteractionBreach | undefined {
  const breach = schemaBreachOf(interactionExchange(i), routes);
  if (!breach) return undefined;
  // A body that is not JSON has no issue to point at: the breach's own words are its one issue.
  const issues = breach.issues.length > 0 ? breach.issues.map((issue) => ({ pointer: issue.path, message: issue.message })) : [{ message: breach.text }];
  return { text: breach.text, ...(breach.schema ? { schema: breach.schema } : {}), issues };
}

/** Every recorded answer under root that breaks its route's schema: the "checked on load" rule. */
export function checkRecordings(root: string): RecordingBreach[] {
  const breaches: RecordingBreach[] = [];
  const routesOf = Object.fromEntries(RECORDING_APIS.map((api) => [api, recordedRouteSchemas(root, api)])) as Record<RecordingApi, RouteSchemas>;
  for (const rel of listCassettes(root, 'raw')) {
    const api = apiOf(rel);
    if (!api) continue;
    const cassette = readCassette(join(root, rel));
    const routes = routesOf[api];
    cassette.interactions.forEach((i, n) => {
      const breach = interactionBreach(i, routes);
      if (!breach) return;
      breaches.push({
        api,
        suite: cassette.suite,
        test: cassette.test,
        file: rel.slice(0, -'.raw.json'.length),
        interaction: n + 1,
        route: requestLine(i),
        status: i.status,
        ...(breach.schema ? { schema: breach.schema } : {}),
        message: breach.text,
      });
    });
  }
  return breaches;
}

/** Schema findings of a fresh interaction that no field difference accounts for. */
export function schemaFindings(breach: InteractionBreach | undefined, issues: readonly SchemaIssueLine[], route: string, interaction: number): DriftFinding[] {
  if (!breach) return [];
  return issues.map((issue) => ({
    kind: 'contract-break',
    change: 'schema',
    route,
    interaction,
    ...(issue.pointer !== undefined ? { subject: issue.pointer === '' ? '(root)' : issue.pointer } : {}),
    message: `the fresh answer breaks ${breach.schema ?? 'its schema'}${issue.pointer !== undefined ? ` at ${issue.pointer || '(root)'}` : ''}`,
    rule: `${breach.schema ? `${breach.schema}: ` : ''}${issue.pointer !== undefined ? `${issue.pointer || '(root)'}: ` : ''}${issue.message}`,
  }));
}
