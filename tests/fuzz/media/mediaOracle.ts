/**
 * What the media twin answers a request, walked in the order ASSUMPTIONS.md
 * and the pipeline document: Accept (406), token (401 for a revoked one),
 * body size (413), route (404 Route Not Found), then the route's checks in the
 * documented order "query (400), body structure (400), policy (403),
 * validation (422)". The spec leaves statuses and error members "not shown", so
 * every expectation below comes from an ASSUMPTIONS.md row (quoted) or the
 * field notes; where neither settles the answer, the oracle allows each answer
 * the route documents, and says so.
 */
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { MAX_BODY_BYTES } from '../../../src/twins/serving/requestBody.ts';
import { definitionForCollection } from '../../../src/twins/media/registry.ts';
import { targetTypes, type ResourceDefinition } from '../../../src/twins/media/resources/define.ts';
import { jsonBodyOf, type Expectation } from '../expectation.ts';
import type { RawAnswer } from '../exchange.ts';
import { matchesPath, paramValues } from '../fuzzRoute.ts';
import type { RawRequest } from '../rawRequest.ts';
import { bodyBytes, brokenBody, declaresBody, decoded, effectiveHeaders, httpProblem, mediaType, pathSegments, queryOf, readJson } from '../requestView.ts';
import type { Verdict } from '../verdict.ts';
import { kindTakes, writable, type WriteAction } from './mediaBodies.ts';
import { fieldsVerdict, includeVerdict, indexQueryVerdict, malformedFamily } from './mediaQuery.ts';
import { collectionOf, writeActionOf, type MediaFuzzRoute } from './mediaRouteTable.ts';
import { wellFormedParam, type KnownId, type MediaWorldState } from './mediaWorld.ts';

export interface MediaOracleInput {
  readonly routes: readonly MediaFuzzRoute[];
  readonly world: MediaWorldState;
}

const OAUTH_CONTENT_TYPE = 'application/json; charset=utf-8';

function expect(rule: string, statuses: readonly number[], extra: Partial<Expectation> = {}): Expectation {
  return { rule, statuses, contentType: MEDIA_CONTRACT.mediaType, errorSchema: () => 'media/error-document', ...extra };
}

/** The first error object's member, as documented for the answer (a title, a detail, a status). */
function firstError(member: 'title' | 'detail', expected: string): (answer: RawAnswer) => string | undefined {
  return (answer) => {
    const document = jsonBodyOf(answer) as { errors?: Record<string, unknown>[] } | undefined;
    if (document === undefined) return undefined;
    const actual = document.errors?.[0]?.[member];
    return actual === expected ? undefined : `errors[0].${member} is ${JSON.stringify(actual)}, documented ${JSON.stringify(expected)}`;
  };
}

const ROUTE_NOT_FOUND = (): Expectation =>
  expect('ASSUMPTIONS.md "Unknown routes and methods (including OPTIONS, PROPFIND, a write to a read-only collection) answer 404 Route Not Found"', [404], {
    check: firstError('title', 'Route Not Found'),
  });

const NODE_REFUSES = 'ASSUMPTIONS.md "Requests Node cannot parse answer 400 (431 for oversized headers) with a JSON:API error"';

/** An answer from the headers alone, which Node's 400 for a broken body may beat to the client. */
function beforeBody(expected: Expectation, broken: string | undefined): Expectation {
  if (broken === undefined) return expected;
  return { ...expected, rule: `${expected.rule}, or 400 if Node refuses the body first (${broken})`, statuses: [...expected.statuses, 400], check: undefined };
}

/** "Authorization: Bearer <token> (scheme case-insensitive)". */
function bearerToken(headers: ReadonlyMap<string, string>): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1];
}

/** The answers a special route documents; which one a malformed request gets is left to the route. */
const SPECIAL_ANSWERS = [200, 201, 204, 400, 403, 404, 409, 415, 422];

/**
 * "Accept: absent, the any-type range, application/* or
 * application/vnd.api+json (a q parameter allowed); anything else 406" (the
 * row's first range would end this comment). An empty Accept is left unclear.
 */
function acceptVerdict(accept: string | undefined): Verdict {
  if (accept === undefined) return 'accepted';
  if (accept.trim() === '') return 'unclear';
  const acceptable = accept.split(',').some((entry) => {
    const [range = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    return range === '*/*' || range === 'application/*' || (range === MEDIA_CONTRACT.mediaType && params.every((param) => param.startsWith('q=')));
  });
  return acceptable ? 'accepted' : 'refused';
}

export function mediaExpectation(request: RawRequest, input: MediaOracleInput): Expectation {
  const problem = httpProblem(request);
  if (problem) return expect(`${NODE_REFUSES}: ${problem.why}`, [problem.status]);
  // Every path reads the body before it answers, except for Accept and the token on /api/edge.
  const broken = brokenBody(request);
  const segments = pathSegments(request.target);
  const edge = MEDIA_CONTRACT.edgePrefix.split('/').slice(1);
  if (!edge.every((segment, i) => segments[i] === segment)) {
    if (broken) return expect(`${NODE_REFUSES}: ${broken}`, [400]);
    const oauth = input.routes.find((route) => route.kind === 'oauth' && matchesPath(route, segments));
    return oauth && request.method === 'POST' ? oauthExpectation(request) : ROUTE_NOT_FOUND();
  }

  const headers = effectiveHeaders(request);
  const accept = acceptVerdict(headers.get('accept'));
  if (accept === 'refused') {
    return beforeBody(
      expect('ASSUMPTIONS.md, Writes: "Accept ... anything else 406 Not acceptable"', [406], { check: firstError('title', 'Not acceptable') }),
      broken,
    );
  }
  if (bearerToken(headers) === input.world.revokedToken) {
    const rule = 'ASSUMPTIONS.md, Authentication: "an expired ... or revoked token is 401 Invalid token"';
    return beforeBody(expect(rule, [401], { check: firstError('title', 'Invalid token') }), broken);
  }
  if (broken) return expect(`${NODE_REFUSES}: ${broken}`, [400]);
  if (declaresBody(request) && bodyBytes(request).length > MAX_BODY_BYTES) {
    return expect('ASSUMPTIONS.md, Writes: "Bodies are limited to 1 MiB: 413 Payload too large"', [413], { check: firstError('title', 'Payload too large') });
  }
  const api = segments.slice(edge.length);
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  // "a special route of the spec's table first (/library-entries/_issues before /library-entries/{id})".
  const candidates = input.routes.filter((route) => route.kind !== 'oauth' && route.method === method && matchesPath(route, api));
  const route = candidates.find((candidate) => candidate.kind === 'special') ?? candidates[0];
  if (!route) return ROUTE_NOT_FOUND();

  const answer = route.kind === 'special' ? specialExpectation(route, api, request, input) : standardExpectation(route, api, request, input);
  if (accept === 'unclear' && !answer.statuses.includes(406))
    return { ...answer, rule: `${answer.rule}; an empty Accept may also be 406 (not documented)`, statuses: [...answer.statuses, 406] };
  return answer;
}

/** OAuth's own JSON, not JSON:API: "OAuth errors are OAuth's own {"error","error_description"}". */
function oauthExpectation(request: RawRequest): Expectation {
  const oauth = { contentType: OAUTH_CONTENT_TYPE, errorSchema: () => 'media/oauth-error' };
  if (declaresBody(request) && bodyBytes(request).length > MAX_BODY_BYTES)
    return expect('ASSUMPTIONS.md "Bodies are limited to 1 MiB", in OAuth\'s error shape', [413], oauth);
  return expect(
    'ASSUMPTIONS.md, Authentication: the token and revoke answers (200) and OAuth errors (400 invalid_request/invalid_grant/..., 401 invalid_client)',
    [200, 400, 401],
    oauth,
  );
}

type Viewer = 'admin' | 'anonymous';

function viewerOf(request: RawRequest, world: MediaWorldState): Viewer {
  // "an unknown token, another scheme or a malformed header is anonymous".
  return bearerToken(effectiveHeaders(request)) === world.token ? 'admin' : 'anonymous';
}

/** "An id segment is digits only (400 Invalid field value otherwise); leading zeros are dropped; a missing record and a record the viewer may not see are both 404". */
function idVerdict(raw: string, known: KnownId | undefined, viewer: Viewer): 'invalid' | 'missing' | 'found' | 'unclear' {
  const id = decoded(raw);
  if (!/^\d{1,30}$/.test(id)) return 'invalid';
  if (known === undefined || id.replace(/^0+(?=\d)/, '') !== known.id) return 'missing';
  return known.visible && viewer === 'admin' ? 'found' : 'unclear';
}

function standardExpectation(route: MediaFuzzRoute, api: readonly string[], request: RawRequest, input: MediaOracleInput): Expectation {
  const collection = collectionOf(route);
  const definition = definitionForCollection(collection);
  if (!definition) return expect(`the registry serves ${collection}`, []);
  const query = queryOf(request.target);
  const viewer = viewerOf(request, input.world);
  const action = writeActionOf(route);

  if (route.operation === 'index') {
    const verdict = indexQueryVerdict(query, definition, collection);
    const rule = 'ASSUMPTIONS.md, Documents and queries / Pagination: the query families, filters, sort and page values an index takes (400 otherwise)';
    return expect(rule, verdict === 'refused' ? [400] : verdict === 'unclear' ? [200, 400] : [200]);
  }
  if (action && !jsonApiContentType(effectiveHeaders(request))) {
    return expect(
      'ASSUMPTIONS.md "Standard creates and updates need Content-Type: application/vnd.api+json with no parameter but profile ..., else 415, checked before the body is read" (media.jsonapi.content-type-parameters-415)',
      [415],
      {
        check: firstError('title', 'Unsupported media type'),
      },
    );
  }
  if (route.operation !== 'destroy') {
    const verdicts = [includeVerdict(query, definition), fieldsVerdict(query)];
    if (malformedFamily(query) || verdicts.includes('refused')) {
      return expect('ASSUMPTIONS.md, Documents and queries: a malformed query family, an unknown include or a bad sparse field is 400', [400]);
    }
    const ignored = [...query.keys()].every((key) => key === 'include' || key.startsWith('fields[') || !/^(filter|page|sort)/.test(key));
    if (verdicts.includes('unclear') || !ignored) {
      return expect('not documented: filter, sort or page parameters on a single resource', [200, 201, 400, 403, 404, 422]);
    }
  }
  const id = paramValues(route, api)['id'];
  const found = id === undefined ? 'found' : idVerdict(id, input.world.ids[collection], viewer);
  if (found === 'invalid')
    return expect('ASSUMPTIONS.md "An id segment is digits only (400 Invalid field value otherwise)"', [400], {
      check: firstError('title', 'Invalid field value'),
    });
  if (found === 'missing')
    return expect('ASSUMPTIONS.md "a missing record ... 404 Record not found"', [404], { check: firstError('title', 'Record not found') });
  const mayBeHidden = found === 'unclear' ? [404] : [];
  if (route.operation === 'show') return expect('a record the viewer may see answers 200', [200, ...mayBeHidden]);
  if (route.operation === 'destroy') return expect('field notes "DELETE 204"; ASSUMPTIONS.md: policies refuse with 403', [204, 403, ...mayBeHidden]);
  return writeExpectation(definition, action ?? 'create', request, mayBeHidden);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** "Structure errors: no data 400 ...; data not an object 400; a wrong type 400; ... an unknown or non-writable member 400; ... a malformed linkage 400". */
function structureProblem(definition: ResourceDefinition, action: WriteAction, body: unknown): string | undefined {
  if (!isObject(body) || !Object.hasOwn(body, 'data')) return 'no data';
  const data = body['data'];
  if (!isObject(data)) return 'data not an object';
  if (data['type'] !== definition.type) return 'another type';
  const attributes = data['attributes'] ?? {};
  if (!isObject(attributes)) return 'attributes not an object';
  for (const name of Object.keys(attributes)) {
    const spec = Object.hasOwn(definition.attributes, name) ? definition.attributes[name] : undefined;
    if (!spec || !writable(spec, action)) return `${name} is not writable`;
  }
  const relationships = data['relationships'] ?? {};
  if (!isObject(relationships)) return 'relationships not an object';
  for (const [name, value] of Object.entries(relationships)) {
    const spec = Object.hasOwn(definition.relationships, name) ? definition.relationships[name] : undefined;
    if (!spec || !writable(spec, action) || spec.kind === 'deprecated') return `${name} is not writable`;
    const identifier = (linkage: unknown): boolean =>
      isObject(linkage) &&
      typeof linkage['type'] === 'string' &&
      ['string', 'number'].includes(typeof linkage['id']) &&
      targetTypes(spec).includes(linkage['type']);
    const linkage = isObject(value) ? value['data'] : undefined;
    const valid =
      isObject(value) &&
      Object.hasOwn(value, 'data') &&
      (spec.kind === 'one' ? linkage === null || identifier(linkage) : Array.isArray(linkage) && linkage.every(identifier));
    if (!valid) return `relationships.${name} is not a valid linkage`;
  }
  return undefined;
}

function writeExpectation(definition: ResourceDefinition, action: WriteAction, request: RawRequest, mayBeHidden: readonly number[]): Expectation {
  const bytes = bodyBytes(request);
  const read = bytes.length === 0 ? { valid: true as const, value: undefined } : readJson(bytes);
  if (!read.valid) return expect('ASSUMPTIONS.md "invalid JSON or bytes that are not UTF-8 400 Bad Request"', [400]);
  const problem = structureProblem(definition, action, read.value);
  if (problem) return expect(`ASSUMPTIONS.md, Writes, structure errors are 400: ${problem}`, [400]);
  const attributes = ((read.value as { data: { attributes?: Record<string, unknown> } }).data.attributes ?? {}) as Record<string, unknown>;
  const wrongKind = Object.entries(attributes).filter(([name, value]) => !kindTakes(definition.attributes[name]?.kind ?? 'json', value));
  if (wrongKind.length > 0) {
    return expect(`ASSUMPTIONS.md "policy (403), validation (422)": ${wrongKind.map(([name]) => name).join(', ')} of the wrong kind`, [
      403,
      422,
      ...mayBeHidden,
    ]);
  }
  const done = action === 'create' ? 201 : 200;
  return expect('field notes "POST 201, PATCH 200"; ASSUMPTIONS.md: policy 403, validation 422', [done, 403, 422, ...mayBeHidden]);
}

/**
 * The answer to a path parameter a special route cannot use, from the rows
 * of ASSUMPTIONS.md, Special routes; undefined when the parameters are the
 * well-formed ones.
 */
function specialParamExpectation(route: MediaFuzzRoute, api: readonly string[], viewer: Viewer, world: MediaWorldState): Expectation | undefined {
  const collection = collectionOf(route);
  const values = paramValues(route, api);
  const odd = Object.keys(values).find((param) => values[param] !== wellFormedParam(route, param, world));
  if (odd === undefined) return undefined;
  const signedInOnly = viewer === 'anonymous' ? [403] : [];
  if (odd === 'namespace')
    return expect('ASSUMPTIONS.md "another namespace 400 ... Invalid namespace" (signed-in routes refuse anonymous requests first)', [400, ...signedInOnly]);
  if (collection === 'feeds' && odd !== 'uuid') return expect('ASSUMPTIONS.md "a feed the viewer may not see, an unknown group or id is 403"', [403]);
  if (odd === 'uuid') return expect('ASSUMPTIONS.md "an activity not in the feed 404"', [404, ...signedInOnly]);
  if (odd === 'action') return expect('ASSUMPTIONS.md "/search-keys/{action} ... an unknown action 404"', [404]);
  if (collection === 'activities') return expect('ASSUMPTIONS.md "DELETE /activities/{id}: ... unknown 404"', [404]);
  const id = decoded(values['id'] ?? '');
  return /^\d{1,30}$/.test(id)
    ? expect('ASSUMPTIONS.md "an unknown invite 404" / a missing record is 404', [404])
    : expect('ASSUMPTIONS.md "An id segment is digits only (400 Invalid field value otherwise)"', [400]);
}

function specialExpectation(route: MediaFuzzRoute, api: readonly string[], request: RawRequest, input: MediaOracleInput): Expectation {
  return (
    specialParamExpectation(route, api, viewerOf(request, input.world), input.world) ??
    expect(`not documented per malformation: ${route.key} answers as ASSUMPTIONS.md, Special routes lists`, SPECIAL_ANSWERS)
  );
}

/** Content-Type is the JSON:API media type with no parameter but profile (JSON:API: any other is 415). */
function jsonApiContentType(headers: ReadonlyMap<string, string>): boolean {
  const params = (headers.get('content-type') ?? '')
    .split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase());
  return mediaType(headers) === MEDIA_CONTRACT.mediaType && params.every((param) => param === '' || param.startsWith('profile='));
}
