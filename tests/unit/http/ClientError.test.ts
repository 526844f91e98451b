import { expect, test } from '../../../src/testing/harnessTest.ts';
import {
  ClientApiError,
  ClientConfigError,
  ClientError,
  ClientInvalidResponseError,
  ClientRequestError,
  ClientTransportError,
} from '../../../src/http/ClientError.ts';
import * as media from '../../../src/clients/media/errors.ts';
import * as store from '../../../src/clients/store/errors.ts';

// One error base: every kind is one class of the core, each client declares its own class of it with a literal code.

const transport = { method: 'GET', url: 'http://127.0.0.1:1/x', attempts: 2, causeCode: 'ECONNREFUSED', causeMessage: 'connect refused' };
const unreadable = { status: 200, method: 'GET', url: 'http://127.0.0.1:1/x', what: 'a body that is not JSON', text: '<html>' };

test('each shared kind has one class in the core and a stable <API>_ERR_<KIND> code per client', () => {
  const made: [ClientError, abstract new (...args: never[]) => ClientError, string][] = [
    [new store.StoreConfigError('m'), ClientConfigError, 'STORE_ERR_CONFIG'],
    [new store.StoreRequestError('m'), ClientRequestError, 'STORE_ERR_INVALID_REQUEST'],
    [new store.StoreTransportError(transport), ClientTransportError, 'STORE_ERR_TRANSPORT'],
    [new store.StoreInvalidResponseError(unreadable), ClientInvalidResponseError, 'STORE_ERR_INVALID_RESPONSE'],
    [new media.MediaConfigError('m'), ClientConfigError, 'MEDIA_ERR_CONFIG'],
    [new media.MediaRequestError('m'), ClientRequestError, 'MEDIA_ERR_INVALID_REQUEST'],
    [new media.MediaTransportError(transport), ClientTransportError, 'MEDIA_ERR_TRANSPORT'],
    [new media.MediaInvalidResponseError(unreadable), ClientInvalidResponseError, 'MEDIA_ERR_INVALID_RESPONSE'],
  ];
  for (const [error, kind, code] of made) {
    expect(error).toBeInstanceOf(kind);
    expect(error).toBeInstanceOf(ClientError);
    expect(error.code).toBe(code);
    expect(error.name).toBe(error.constructor.name);
  }
  // Named after the client and the kind, as before the core: reports and tests name them.
  expect(made.map(([error]) => error.name)).toEqual([
    'StoreConfigError',
    'StoreRequestError',
    'StoreTransportError',
    'StoreInvalidResponseError',
    'MediaConfigError',
    'MediaRequestError',
    'MediaTransportError',
    'MediaInvalidResponseError',
  ]);
});

test("StoreClientError and MediaClientError stand for every error of their client's voice, and only those", () => {
  const storeErrors = [
    new store.StoreConfigError('m'),
    new store.StoreTransportError(transport),
    store.apiErrorFor({ status: 402, method: 'GET', url: 'u', body: {}, retries: 0 }),
  ];
  const mediaErrors = [new media.MediaConfigError('m'), media.apiErrorFor({ status: 401, method: 'GET', url: 'u', text: '', retries: 0 })];
  for (const error of storeErrors) {
    expect(error instanceof store.StoreClientError).toBe(true);
    expect(error instanceof media.MediaClientError).toBe(false);
  }
  for (const error of mediaErrors) {
    expect(error instanceof media.MediaClientError).toBe(true);
    expect(error instanceof store.StoreClientError).toBe(false);
  }
  expect(new Error('x') instanceof store.StoreClientError).toBe(false);
});

test('an API error of either client says who speaks, the status, what it means and the fix, and keeps its vocabulary', () => {
  const payment = store.apiErrorFor({ status: 402, method: 'GET', url: 'http://s/v1/1/products', body: { description: 'Payment Required' }, retries: 0 });
  expect(payment).toBeInstanceOf(store.PaymentRequiredError);
  expect(payment).toBeInstanceOf(ClientApiError);
  expect(payment.code).toBe('STORE_ERR_PAYMENT_REQUIRED');
  expect(payment.message).toMatch(
    /^Store API answered 402 Payment Required to GET http:\/\/s\/v1\/1\/products \("Payment Required"\)\. .* Fix: payment must be resumed/,
  );

  const text = JSON.stringify({ errors: [{ title: 'is invalid', source: { pointer: '/data/attributes/rating' } }] });
  const invalid = media.apiErrorFor({ status: 422, method: 'POST', url: 'http://m/api/edge/library-entries', text, retries: 1 });
  expect(invalid).toBeInstanceOf(media.ValidationError);
  expect(invalid.code).toBe('MEDIA_ERR_VALIDATION');
  expect(invalid.retries).toBe(1);
  expect((invalid as media.ValidationError).pointers).toEqual({ '/data/attributes/rating': ['is invalid'] });
  expect(invalid.message).toMatch(/^Media API answered 422 Unprocessable Entity to POST .* Fix: correct the named attributes/);
});

test('a transport error names the client, the request, the attempts and the cause, and keeps the cause', () => {
  const cause = new Error('socket');
  const error = new media.MediaTransportError({ ...transport, cause });
  expect(error.message).toBe(
    "Media client: GET http://127.0.0.1:1/x got no answer after 2 attempt(s): ECONNREFUSED connect refused. Fix: check that the Media API (or its twin) is running and reachable at the client's baseUrl.",
  );
  expect(error.cause).toBe(cause);
  expect([error.method, error.url, error.attempts, error.causeCode]).toEqual(['GET', transport.url, 2, 'ECONNREFUSED']);
});
