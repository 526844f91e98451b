/**
 * Turns a well-formed request into the malformed one a case asks for. The
 * pieces both twins share live here; what depends on a twin's paths (unknown
 * routes, path parameters) is given by the twin's case builder.
 */
import { jsonOfSize, encodeQueryKey } from './malformedValues.ts';
import type { BrokenHttp, HeaderChange, Malformation } from './malformation.ts';
import type { HeaderLine, RawRequest } from './rawRequest.ts';

export interface TwinRequestParts {
  /** The target of the case's route with the malformation's path changes applied. */
  readonly target: string;
  /** The Content-Type a body of this twin is sent with. */
  readonly jsonType: string;
  /** `{placeholders}` in header values the fuzzer generated, filled from the twin's state (a token). */
  readonly fill: (value: string) => string;
}

function changeHeaders(lines: readonly HeaderLine[], change: HeaderChange, fill: (value: string) => string): HeaderLine[] {
  const others = (name: string): HeaderLine[] => lines.filter(([line]) => line.toLowerCase() !== name.toLowerCase());
  if (change.action === 'remove') return others(change.name);
  if (change.action === 'add') return [...lines, [change.name, fill(change.value)]];
  return [...others(change.name), [change.name, fill(change.value)]];
}

function withJsonType(lines: readonly HeaderLine[], jsonType: string): HeaderLine[] {
  return [...lines.filter(([name]) => name.toLowerCase() !== 'content-type'), ['Content-Type', jsonType]];
}

function brokenHttp(request: RawRequest, how: BrokenHttp): RawRequest {
  switch (how) {
    case 'no-host':
      return { ...request, headers: request.headers.filter(([name]) => name.toLowerCase() !== 'host') };
    case 'control-char-in-header':
      return { ...request, headers: [...request.headers, ['X-Fuzz', 'a\u0001b']] };
    case 'space-in-target':
      return { ...request, target: `${request.target}/fuzz here` };
    case 'raw-unicode-in-target':
      return { ...request, target: `${request.target}${request.target.includes('?') ? '&' : '?'}q=é🙂` };
    case 'bad-chunk':
      return { ...request, headers: [...request.headers, ['Transfer-Encoding', 'chunked']], body: Buffer.from('zz\r\n{}\r\n0\r\n\r\n'), framing: 'raw' };
    case 'length-and-chunked':
      return { ...request, headers: [...request.headers, ['Content-Length', '2']], body: Buffer.from('{}'), framing: 'chunked' };
    case 'bad-content-length':
      return { ...request, headers: [...request.headers, ['Content-Length', '2x']], body: undefined, framing: 'raw' };
    case 'truncated-body':
      return { ...request, headers: [...request.headers, ['Content-Length', '100']], body: Buffer.from('{"a":'), framing: 'raw' };
  }
}

/** The request a malformation makes of `base` (the route's well-formed request). */
export function applyMalformation(base: RawRequest, malformation: Malformation, twin: TwinRequestParts): RawRequest {
  const request: RawRequest = { ...base, target: twin.target };
  switch (malformation.kind) {
    case 'bad-json':
      return { ...request, headers: withJsonType(request.headers, twin.jsonType), body: malformation.body, framing: 'length' };
    case 'non-object-json':
      return { ...request, headers: withJsonType(request.headers, twin.jsonType), body: Buffer.from(malformation.json), framing: 'length' };
    case 'huge-body':
      return { ...request, headers: withJsonType(request.headers, twin.jsonType), body: jsonOfSize(malformation.bytes), framing: malformation.framing };
    case 'empty-body': {
      const headers = withJsonType(request.headers, twin.jsonType);
      if (malformation.framing === 'content-length-0') return { ...request, headers, body: Buffer.alloc(0), framing: 'length' };
      if (malformation.framing === 'chunked') return { ...request, headers, body: undefined, framing: 'chunked' };
      return { ...request, headers, body: undefined, framing: 'length' };
    }
    case 'header':
      return { ...request, headers: changeHeaders(request.headers, malformation.change, twin.fill) };
    case 'odd-method':
      return { ...request, method: malformation.method };
    case 'bad-query': {
      const query = malformation.params.map(([key, value]) => `${encodeQueryKey(key)}=${value}`).join('&');
      return { ...request, target: `${request.target}${request.target.includes('?') ? '&' : '?'}${query}` };
    }
    case 'broken-http':
      return brokenHttp(request, malformation.how);
    case 'wrong-member-types':
    case 'unknown-route':
    case 'odd-path-param':
      // The twin's own builder has placed these in the body or the target already.
      return request;
  }
}
