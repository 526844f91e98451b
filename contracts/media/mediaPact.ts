/**
 * The pieces every media interaction shares: the JSON:API media type and the typed
 * client under test.
 */
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { MediaClient } from '../../src/clients/media/MediaClient.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';
import { MEDIA_PACT, PACT_OUTPUT_DIR } from '../pactNames.ts';

const { regex } = MatchersV3;

/** Answers are JSON:API documents (field notes: Media type). */
export const JSON_API = { 'Content-Type': regex('^application/vnd\\.api\\+json', MEDIA_CONTRACT.mediaType) };

/** A signed-in request: the verification injects a real token for the state's user. */
export const SIGNED_IN = { Authorization: regex('^Bearer \\S+$', 'Bearer consumer-token') };

export function mediaPact(): PactV4 {
  return new PactV4({ ...MEDIA_PACT, dir: PACT_OUTPUT_DIR, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'warn' });
}

/** The typed client against Pact's mock server (signed in when given a token); no retries, so each interaction is one request. */
export function mediaClient(mockServerUrl: string, token?: string): MediaClient {
  return new MediaClient({ baseUrl: `${mockServerUrl}${MEDIA_CONTRACT.edgePrefix}`, retry: { maxRetries: 0 }, ...(token ? { token } : {}) });
}
