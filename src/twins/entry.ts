/**
 * `api-contract-harness/twins` as a team imports it: the Node is checked before the twins (and undici) load,
 * so an older one gets the bin's words (src/config/nodeVersion.ts) rather than an error from inside a
 * dependency. The types come from startTwins.ts itself (package.json `exports`); a unit test holds the
 * names below to that module's.
 */
import { assertSupportedNode } from '../config/nodeVersion.ts';

assertSupportedNode('api-contract-harness/twins');
const twins = await import('./startTwins.ts');

export const { startTwins, TwinsStartError, MEDIA_OAUTH_CLIENT_ID } = twins;
