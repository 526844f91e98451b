/**
 * 200 bodies for the Store document's GET operations, answered by the store
 * twin's own route handlers from its seed (src/twins/store/seed.ts): real
 * shapes, and the same bytes on every run (seed dates are fixed).
 */
import { plainJson } from '../twins/serving/jsonText.ts';
import { STORE_CONTRACT } from '../rules/storeContract.ts';
import type { ApiContext } from '../twins/store/apiContext.ts';
import { apiRoutes } from '../twins/store/routes/apiRoutes.ts';
import { SEEDED_STORES } from '../twins/store/seed.ts';
import { TwinState } from '../twins/store/twinState.ts';

/** A list example holds one short page: enough to show the shape, small enough to read. */
const EXAMPLE_PAGE = 'per_page=2';

/** One answer of the twin: its body and the headers the route sets (X-Total-Count, Link). */
export interface StoreExample {
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

export interface StoreExamples {
  readonly storeId: number;
  readonly mainLanguage: string;
  /** The answer to GET `path` (a template such as `/products/{product_id}`); a placeholder takes the first id of the list above it. */
  get(path: string): Promise<StoreExample>;
}

/** Examples from the first seeded store, with URLs under `apiUrl` (`https://api.tiendanube.com`). */
export function storeExamples(apiUrl: string): StoreExamples {
  const twin = new TwinState({ clockMode: 'virtual', deliverySignal: new AbortController().signal });
  const storeId = SEEDED_STORES[0]!.id;
  const store = twin.find(String(storeId))!;

  async function answer(segments: readonly string[], query: string): Promise<StoreExample> {
    const match = apiRoutes.match('GET', segments);
    if (match.kind !== 'found') throw new Error(`storeExamples: the store twin has no route GET /${segments.join('/')}`);
    const context: ApiContext = {
      store,
      method: 'GET',
      query: new URLSearchParams(query),
      body: undefined,
      storeUrl: `${apiUrl}/${STORE_CONTRACT.version}/${storeId}`,
      resourcePath: segments.join('/'),
    };
    const response = await match.handler(context, match.params);
    if (response.status !== 200) throw new Error(`storeExamples: GET /${segments.join('/')} answered ${response.status}, not 200`);
    return { body: plainJson(response.body), headers: response.headers ?? {} };
  }

  async function get(path: string): Promise<StoreExample> {
    const segments = path.split('/').slice(1);
    const last = segments.length - 1;
    if (!segments[last]?.startsWith('{')) return answer(segments, EXAMPLE_PAGE);
    const list = (await get(`/${segments.slice(0, last).join('/')}`)).body as { id?: unknown }[];
    const id = list[0]?.id;
    if (id === undefined) throw new Error(`storeExamples: the seed has nothing at ${path}`);
    return answer([...segments.slice(0, last), String(id)], '');
  }

  return { storeId, mainLanguage: store.mainLanguage, get };
}
