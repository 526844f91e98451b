/**
 * The media twin's fuzz cases: for a route of the table, fast-check picks
 * one malformation, weighted toward what the route reads; `mediaRequest`
 * builds the bytes against the twin as the world holds it.
 */
import fc from 'fast-check';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { definitionForCollection } from '../../../src/twins/media/registry.ts';
import { applyMalformation } from '../applyMalformation.ts';
import { paramNames } from '../fuzzRoute.ts';
import { fuzzCase, type FuzzCase, type HeaderChange, type Malformation } from '../malformation.ts';
import { oddHeaderValueArb, oddPathValueArb, sideHeaderChangeArb } from '../malformedValues.ts';
import type { HeaderLine, RawRequest } from '../rawRequest.ts';
import { sharedMalformations } from '../sharedMalformations.ts';
import { resourceDocument, wrongMembersArb } from './mediaBodies.ts';
import { mediaQueryParamArb } from './mediaQuery.ts';
import { collectionOf, writeActionOf, type MediaFuzzRoute } from './mediaRouteTable.ts';
import { wellFormedParam, type MediaWorldState } from './mediaWorld.ts';

const TOKEN = '{token}';
const REVOKED = '{revoked-token}';
const FORM = 'application/x-www-form-urlencoded';

const acceptArb = fc.oneof(
  fc.constantFrom(
    'text/html',
    'application/xml',
    'application/json',
    'image/*',
    'application/vnd.api+json; charset=utf-8',
    'application/vnd.api+json; ext=bulk',
  ),
  oddHeaderValueArb,
  // Accepted: "absent, */*, application/* or application/vnd.api+json (a q parameter allowed)".
  fc.constantFrom('*/*', 'application/*', 'application/vnd.api+json;q=0.9', 'text/html, */*'),
);

const authorizationArb = fc.oneof(
  fc.constantFrom(`Bearer ${REVOKED}`, 'Bearer zz-never-issued', `Basic ${TOKEN}`, 'Bearer', `Bearer ${TOKEN} ${TOKEN}`, `bearer ${TOKEN}`, TOKEN),
  oddHeaderValueArb,
);

const contentTypeArb = fc.constantFrom(
  'application/json',
  'text/plain',
  FORM,
  'multipart/form-data; boundary=x',
  'application/vnd.api+jsonx',
  '',
  'Application/Vnd.Api+JSON; charset=utf-8',
);

/** Bodies of special writes (embeds, bulk uploads and updates, feed marks): objects of odd members, none documented per value. */
const specialBodyArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.dictionary(fc.constantFrom('data', 'url', 'attributes', 'type', '_json'), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1, maxKeys: 3 }),
  fc.record({ data: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 3 }) }),
  fc.record({
    data: fc.record({
      type: fc.constantFrom('libraryEntries', 'uploads', 'embeds'),
      attributes: fc.dictionary(fc.constantFrom('status', 'url', 'content', 'progress'), fc.jsonValue({ maxDepth: 2 })),
    }),
  }),
);

const sendsBody = (route: MediaFuzzRoute): boolean => ['POST', 'PATCH', 'PUT'].includes(route.method);

function headerChangeArb(route: MediaFuzzRoute): fc.Arbitrary<HeaderChange> {
  const hasBody = writeActionOf(route) !== undefined || route.kind === 'oauth';
  return fc.oneof(
    fc.oneof(
      fc.constant<HeaderChange>({ action: 'remove', name: 'Accept' }),
      acceptArb.map((value): HeaderChange => ({ action: 'set', name: 'Accept', value })),
    ),
    fc.constant<HeaderChange>({ action: 'remove', name: 'Authorization' }),
    authorizationArb.map((value): HeaderChange => ({ action: 'set', name: 'Authorization', value })),
    fc.constant<HeaderChange>({ action: 'add', name: 'Authorization', value: `Bearer ${REVOKED}` }),
    ...(hasBody
      ? [
          fc.constant<HeaderChange>({ action: 'remove', name: 'Content-Type' }),
          contentTypeArb.map((value): HeaderChange => ({ action: 'set', name: 'Content-Type', value })),
        ]
      : []),
    sideHeaderChangeArb(['Accept', 'User-Agent', 'X-Requested-With']),
  );
}

/** One media case for `route`: the malformations the route can meet, weighted by what it reads. */
export function mediaCaseArb(route: MediaFuzzRoute): fc.Arbitrary<FuzzCase> {
  const action = writeActionOf(route);
  const definition = definitionForCollection(collectionOf(route));
  const params = paramNames(route);
  const arbitraries = sharedMalformations(route, {
    headerChanges: headerChangeArb(route),
    takesBody: action !== undefined,
    queryParam: mediaQueryParamArb(definition?.type ?? 'anime'),
    queryWeightOnGet: 5,
    repeatedName: 'sort',
  });
  if (params.length > 0) {
    arbitraries.push({
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('odd-path-param' as const), param: fc.constantFrom(...params), value: oddPathValueArb }),
    });
  }
  const members = action && definition ? wrongMembersArb(definition, action) : route.kind === 'special' && sendsBody(route) ? specialBodyArb : undefined;
  if (members) arbitraries.push({ weight: 5, arbitrary: members.map((written): Malformation => ({ kind: 'wrong-member-types', members: written })) });
  return fc.oneof(...arbitraries).map((malformation) => fuzzCase(route, malformation));
}

function mediaTarget(route: MediaFuzzRoute, malformation: Malformation, world: MediaWorldState): string {
  const segments = route.segments.map((segment) => {
    if ('literal' in segment) return segment.literal;
    return malformation.kind === 'odd-path-param' && malformation.param === segment.param ? malformation.value : wellFormedParam(route, segment.param, world);
  });
  // OAuth paths start at the host (api/oauth/...); the API's under /api/edge.
  const prefix = route.kind === 'oauth' ? [] : MEDIA_CONTRACT.edgePrefix.split('/').slice(1);
  const path = [...prefix, ...segments];
  const resourceAt = route.kind === 'oauth' ? path.length - 1 : prefix.length;
  if (malformation.kind === 'unknown-route') {
    const { change } = malformation;
    if (change.how === 'unknown-resource') path.splice(resourceAt, 1, change.segment);
    if (change.how === 'extra-segments') path.push(...change.segments);
    if (change.how === 'other-version') path.splice(1, 1, change.version);
  }
  return `/${path.join('/')}`;
}

/** The bytes of a case against the twin as the world holds it now. */
export function mediaRequest(testCase: FuzzCase, world: MediaWorldState): RawRequest {
  const route = testCase.route as MediaFuzzRoute;
  const { malformation } = testCase;
  const headers: HeaderLine[] = [['Host', 'fuzz.test']];
  let base: RawRequest = { method: route.method, target: '', headers, framing: 'length' };
  const action = writeActionOf(route);
  const definition = definitionForCollection(collectionOf(route));
  if (route.kind === 'oauth') {
    // Credentials nobody has: the documented 400 invalid_grant; revoking an unknown token is the documented 200 {}.
    const form = route.operation === 'token' ? 'grant_type=password&username=fuzz&password=fuzz' : 'token=zz-never-issued';
    base = { ...base, headers: [...headers, ['Content-Type', FORM]], body: Buffer.from(form) };
  } else {
    headers.push(['Accept', MEDIA_CONTRACT.mediaType], ['Authorization', `Bearer ${world.token}`]);
    if (route.kind === 'special' && malformation.kind === 'wrong-member-types') {
      base = { ...base, headers: [...headers, ['Content-Type', MEDIA_CONTRACT.mediaType]], body: Buffer.from(JSON.stringify(malformation.members)) };
    } else if (action && definition) {
      const id = action === 'update' ? wellFormedParam(route, 'id', world) : undefined;
      const written = malformation.kind === 'wrong-member-types' ? malformation.members : {};
      base = {
        ...base,
        headers: [...headers, ['Content-Type', MEDIA_CONTRACT.mediaType]],
        body: Buffer.from(JSON.stringify(resourceDocument(definition, action, id, written))),
      };
    }
  }
  return applyMalformation(base, malformation, {
    target: mediaTarget(route, malformation, world),
    jsonType: route.kind === 'oauth' ? 'application/json' : MEDIA_CONTRACT.mediaType,
    fill: (value) => value.replaceAll(REVOKED, world.revokedToken).replaceAll(TOKEN, world.token),
  });
}
