/**
 * Who speaks in each typed client's errors, and the core's shared kinds
 * (src/http/ClientError.ts) in each voice, named after the client. TypeScript
 * needs one declaration per class name, so the table of kind × client is
 * written here once, a line per kind and client, instead of each client
 * restating the list. Each client re-exports its own column (store/errors.ts,
 * media/errors.ts), where its own kinds are.
 */
import * as core from '../http/ClientError.ts';

/** The store client's voice: STORE_ERR_* codes, "Store API answered …". */
export const STORE = { prefix: 'STORE', api: 'Store', contract: 'no root element, collections are JSON arrays' } as const satisfies core.ClientVoice;
/** The media client's voice: MEDIA_ERR_* codes, "Media API answered …". */
export const MEDIA = { prefix: 'MEDIA', api: 'Media', contract: 'JSON:API resource structures, spec: Endpoints' } as const satisfies core.ClientVoice;

const store = core.voicedErrors(STORE);
const media = core.voicedErrors(MEDIA);

/** Any error of the Store client, whichever kind: `error instanceof StoreClientError`. */
export abstract class StoreClientError extends store.ClientError {}
/** Any error of the Media client, whichever kind: `error instanceof MediaClientError`. */
export abstract class MediaClientError extends media.ClientError {}

/** The client was constructed with options it cannot work with. */
export class StoreConfigError extends store.ConfigError {}
/** The client was constructed with options it cannot work with. */
export class MediaConfigError extends media.ConfigError {}

/** A request the client refuses to send (e.g. the token to a foreign origin). */
export class StoreRequestError extends store.RequestError {}
/** A request the client refuses to send (e.g. the token to a foreign origin). */
export class MediaRequestError extends media.RequestError {}

/** No HTTP answer at all, after the retries. */
export class StoreTransportError extends store.TransportError {}
/** No HTTP answer at all, after the retries. */
export class MediaTransportError extends media.TransportError {}

/** An answer the client cannot read as the contract says. */
export class StoreInvalidResponseError extends store.InvalidResponseError {}
/** An answer the client cannot read as the contract says. */
export class MediaInvalidResponseError extends media.InvalidResponseError {}
