/**
 * 200 bodies for the Media document's index and show operations, answered by
 * the media twin's own router from its seed (src/twins/media/seed.ts): real
 * documents, and the same bytes on every run (seed dates are fixed).
 */
import { plainJson } from '../twins/serving/jsonText.ts';
import { routeApiRequest } from '../twins/media/apiRouter.ts';
import { viewerOf } from '../twins/media/auth.ts';
import { MediaState } from '../twins/media/mediaState.ts';
import { ANONYMOUS, type Viewer } from '../twins/media/model.ts';
import { definitionForCollection } from '../twins/media/registry.ts';

/** A collection example holds one short page: enough to show the shape, small enough to read. */
const EXAMPLE_LIMIT = '2';

interface JsonApiBody {
  readonly data: readonly { readonly id: string }[];
}

export interface MediaExample {
  readonly index: unknown;
  readonly show: unknown;
}

export type MediaExamples = (collection: string) => MediaExample;

/**
 * Examples under `apiUrl` (`https://kitsu.io/api/edge`). Each collection is
 * read as the first viewer who sees something in it: anonymous for the public
 * catalogue, else the seeded users in id order (blocks, reports and other
 * records only their owner may read).
 */
export function mediaExamples(apiUrl: string): MediaExamples {
  const state = new MediaState('virtual');
  const viewers: Viewer[] = [ANONYMOUS, ...state.all('users').map((user) => viewerOf(state, user))];

  function answer(viewer: Viewer, segments: readonly string[], query: URLSearchParams): unknown {
    const response = routeApiRequest(
      { state, viewer, query, headers: {}, baseUrl: apiUrl, path: `/${segments.join('/')}`, hasBody: false, json: () => undefined },
      'GET',
      segments,
    );
    if (response.status !== 200) throw new Error(`mediaExamples: GET /${segments.join('/')} answered ${response.status}, not 200`);
    return plainJson(response.body);
  }

  return (collection) => {
    // Library entries answer 400 without a filter (field notes): ask for the viewer's own.
    const needsFilter = definitionForCollection(collection)?.requiresFilter === true;
    for (const viewer of viewers) {
      if (needsFilter && !viewer.user) continue;
      const query = new URLSearchParams({ 'page[limit]': EXAMPLE_LIMIT, ...(needsFilter ? { 'filter[userId]': viewer.user!.id } : {}) });
      const index = answer(viewer, [collection], query) as JsonApiBody;
      const first = index.data[0];
      if (first) return { index, show: answer(viewer, [collection, first.id], new URLSearchParams()) };
    }
    throw new Error(`mediaExamples: no seeded viewer sees any of ${collection}; seed one in src/twins/media/seed.ts`);
  };
}
