/**
 * Arbitraries of malformed pieces both twins get: bodies, path values,
 * methods, header values and query values. Each twin's case arbitrary
 * (store/storeCases.ts, media/mediaCases.ts) puts them into its routes.
 */
import fc from 'fast-check';
import { maxHeaderSize } from 'node:http';
import { MAX_BODY_BYTES } from '../../src/twins/serving/requestBody.ts';
import type { BrokenHttp, HeaderChange, Malformation, RouteChange } from './malformation.ts';
import { scalarText } from '../../src/testing/scalarText.ts';

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Text that is not JSON: near misses, random text, bytes that are not UTF-8, unclosed nesting. */
export const badJsonArb: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .constantFrom(
      '{',
      '{"name":}',
      '[1,]',
      "{'name':'x'}",
      'NaN',
      'undefined',
      '{"a":1}}',
      '{"a" 1}',
      'nul',
      '"open',
      '{"a":01}',
      '[',
      ' ',
      '{"a":"\\x"}',
      '\u0000',
    )
    .map((text) => Buffer.from(text)),
  scalarText({ minLength: 1, maxLength: 40 })
    .filter((text) => !isJson(text))
    .map((text) => Buffer.from(text)),
  fc
    .uint8Array({ minLength: 1, maxLength: 16 })
    .map((bytes) => Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from(bytes), Buffer.from('"}')])),
  fc.integer({ min: 1, max: 5000 }).map((depth) => Buffer.from('['.repeat(depth))),
);

/** JSON text of a value that is not an object: null, a number, a string, a boolean, an array. */
export const nonObjectJsonArb: fc.Arbitrary<string> = fc
  .oneof(
    fc.constant(null),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 20 }),
    fc.boolean(),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  )
  .map((value) => JSON.stringify(value));

/** A body over the twins' 1 MiB limit, at most 5 MB (ASSUMPTIONS.md: over it, 413). */
export const hugeBodyArb: fc.Arbitrary<Extract<Malformation, { kind: 'huge-body' }>> = fc.record({
  kind: fc.constant('huge-body' as const),
  bytes: fc.integer({ min: MAX_BODY_BYTES + 1, max: 5_000_000 }),
  framing: fc.constantFrom('length' as const, 'chunked' as const),
});

/** `{"fuzz":"aaa…"}` of exactly `bytes` bytes: valid JSON, so only its size is wrong. */
export function jsonOfSize(bytes: number): Buffer {
  const frame = Buffer.from('{"fuzz":""}');
  const body = Buffer.alloc(Math.max(bytes, frame.length), 'a');
  frame.copy(body, 0, 0, 9);
  body.write('"}', body.length - 2);
  return body;
}

export const emptyBodyArb: fc.Arbitrary<Malformation> = fc
  .constantFrom('content-length-0' as const, 'chunked' as const, 'no-length' as const)
  .map((framing) => ({ kind: 'empty-body', framing }));

/**
 * A path segment that names nothing: non-numeric, negative, huge, encoded
 * slashes and dots, broken escapes, unicode (percent-encoded: a raw one is
 * broken HTTP, which broken-http covers).
 */
export const oddPathValueArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2F',
    '1%2F2',
    '%2e%2e',
    '%00',
    '%zz',
    '%',
    '-1',
    '0',
    '1e9',
    '1.5',
    '0x1A',
    '+1',
    '%201',
    'abc',
    '__proto__',
    'constructor',
    'null',
    '%F0%9F%98%80',
    '%EF%BC%91',
  ),
  fc.bigInt({ min: 10n ** 15n, max: 10n ** 40n }).map(String),
  fc
    .string({ minLength: 1, maxLength: 12 })
    .map(encodeURIComponent)
    .filter((segment) => !/^\d*$/.test(segment)),
);

// Built once: fc.stringMatching compiles its pattern into an arbitrary, which takes a while.
const unknownResourceArb = fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/).map((name): RouteChange => ({ how: 'unknown-resource', segment: `zz-${name}` }));
const extraSegmentsArb = fc
  .array(fc.stringMatching(/^[a-z0-9_.-]{1,8}$/), { minLength: 3, maxLength: 5 })
  .map((segments): RouteChange => ({ how: 'extra-segments', segments }));
const otherVersionArb = fc.constantFrom('v0', 'v2', 'V1', '2025-03', 'v1.1').map((version): RouteChange => ({ how: 'other-version', version }));

/** Path segments no table has at that place: another resource, segments past any route's depth, another version. */
export const routeChangeArb: fc.Arbitrary<RouteChange> = fc.oneof(unknownResourceArb, extraSegmentsArb, otherVersionArb);

/**
 * Methods other than the route's: other standard ones, HEAD, OPTIONS,
 * TRACE, WebDAV ones Node parses, lower case (not a method Node parses) and
 * made-up tokens. CONNECT is left out: it takes an authority, not a path.
 */
export function oddMethodArb(routeMethod: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc
      .constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE', 'MKCOL')
      .filter((method) => method !== routeMethod),
    fc.constant(routeMethod.toLowerCase()),
    fc.constantFrom('BREW', 'GETT', 'FUZZ', 'G-E-T'),
  );
}

/** C0 controls and DEL: not allowed in a header value (a tab is, but Node trims it away). */
function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/** Printable header values, including non-ASCII text, which HTTP allows as opaque bytes. */
export const oddHeaderValueArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }).map((text) => [...text].filter((char) => !isControl(char)).join('')),
  fc.constantFrom('', ' ', '\t', 'null', 'undefined', '🙂', 'é', '()<>@,;:\\"/[]?={}'),
);

/**
 * A value far below or far above Node's header limit, never near it: the
 * exact byte count Node charges is not the fuzzer's business.
 */
const longHeaderValueArb: fc.Arbitrary<string> = fc
  .oneof(fc.integer({ min: 1024, max: Math.floor(maxHeaderSize / 4) }), fc.integer({ min: 2 * maxHeaderSize, max: 4 * maxHeaderSize }))
  .chain((length) => fc.constantFrom('a', 'x', '7').map((char) => char.repeat(length)));

/** Header lines any API ignores or refuses the same way: long, repeated, unknown names, odd casing. */
export function sideHeaderChangeArb(knownNames: readonly string[]): fc.Arbitrary<HeaderChange> {
  return fc.oneof(
    longHeaderValueArb.map((value): HeaderChange => ({ action: 'add', name: 'X-Fuzz', value })),
    oddHeaderValueArb.map((value): HeaderChange => ({ action: 'add', name: 'X-Fuzz', value })),
    fc.tuple(fc.constantFrom(...knownNames), oddHeaderValueArb).map(([name, value]): HeaderChange => ({ action: 'add', name, value })),
  );
}

/** Values a numeric query parameter should refuse, plus some it should take. */
export const oddNumberTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('-1', '0', '00', 'abc', '1.5', '1e3', '', '0x10', '+1', '%F0%9F%98%80', '%EF%BC%91', 'null', '[]', '9'.repeat(400), '9007199254740993'),
  fc.integer({ min: -1_000_000, max: -1 }).map(String),
  fc.integer({ min: 1, max: 1000 }).map(String),
  fc
    .string({ minLength: 1, maxLength: 10 })
    .map(encodeURIComponent)
    .filter((text) => !/^%20|%20$/.test(text)),
);

/** Any short text as it would sit in a query string. */
export const queryTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 16 }).map(encodeURIComponent),
  fc.constantFrom('%zz', '%', '%00', '%F0%9F%98%80', '__proto__', 'constructor', '[]', '{}', '..', ','),
);

export const brokenHttpArb: fc.Arbitrary<BrokenHttp> = fc.constantFrom<BrokenHttp>(
  'no-host',
  'control-char-in-header',
  'space-in-target',
  'raw-unicode-in-target',
  'bad-chunk',
  'length-and-chunked',
  'bad-content-length',
  'truncated-body',
);

/** Query keys as a target writes them: brackets kept, the rest percent-encoded. */
export function encodeQueryKey(key: string): string {
  return encodeURIComponent(key).replaceAll('%5B', '[').replaceAll('%5D', ']');
}
