/**
 * The store twin's fuzz cases: for a route of the table, fast-check picks
 * one malformation, weighted toward what the route reads (bodies on writes,
 * queries on reads); `storeRequest` builds the bytes against the live store.
 */
import fc from 'fast-check';
import { STORE_CONTRACT } from '../../../src/rules/storeContract.ts';
import { applyMalformation } from '../applyMalformation.ts';
import { paramNames, type FuzzRoute } from '../fuzzRoute.ts';
import { fuzzCase, type FuzzCase, type HeaderChange, type Malformation } from '../malformation.ts';
import { oddHeaderValueArb, oddPathValueArb, sideHeaderChangeArb } from '../malformedValues.ts';
import type { HeaderLine, RawRequest } from '../rawRequest.ts';
import { sharedMalformations } from '../sharedMalformations.ts';
import { storeQueryParamArb } from './storeQuery.ts';
import { paramResource } from './storeRouteTable.ts';
import { FUZZ_USER_AGENT, type StoreWorldState } from './storeWorld.ts';
import { writeBodyOf } from './storeWriteBodies.ts';

/** Placeholders the builder fills from the live store. */
const TOKEN = '{token}';
const OTHER_TOKEN = '{other-store-token}';

/** Authentication values: malformed, someone else's, and two the contract still accepts (scheme case, extra space). */
const tokenValueArb = fc.oneof(
  fc.constantFrom('', 'bearer', 'Bearer ', `basic ${TOKEN}`, `bearer ${TOKEN}x`, `bearer ${OTHER_TOKEN}`, TOKEN, `token ${TOKEN}`, `bearer ${TOKEN} ${TOKEN}`),
  fc.constantFrom(`BEARER ${TOKEN}`, `bearer  ${TOKEN}`),
  oddHeaderValueArb,
);

const wrongContentTypeArb = fc.constantFrom(
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/json-patch+json',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  '',
  // Accepted: the media type is case-insensitive and parameters are ignored (ASSUMPTIONS.md).
  'Application/JSON; charset=latin1',
);

function headerChangeArb(route: FuzzRoute): fc.Arbitrary<HeaderChange> {
  const hasBody = writeBodyOf(route) !== undefined;
  return fc.oneof(
    fc.constantFrom<HeaderChange>(
      { action: 'remove', name: 'User-Agent' },
      { action: 'set', name: 'User-Agent', value: '   ' },
      { action: 'add', name: 'User-Agent', value: '' },
    ),
    fc.constant<HeaderChange>({ action: 'remove', name: 'Authentication' }),
    tokenValueArb.map((value): HeaderChange => ({ action: 'set', name: 'Authentication', value })),
    fc.constant<HeaderChange>({ action: 'add', name: 'Authentication', value: `bearer ${TOKEN}` }),
    ...(hasBody
      ? [
          fc.constant<HeaderChange>({ action: 'remove', name: 'Content-Type' }),
          wrongContentTypeArb.map((value): HeaderChange => ({ action: 'set', name: 'Content-Type', value })),
        ]
      : []),
    fc
      .constantFrom('text/html', 'application/xml', 'image/png', '*/*;q=0', 'application/vnd.api+json')
      .map((value): HeaderChange => ({ action: 'set', name: 'Accept', value })),
    sideHeaderChangeArb(['User-Agent', 'Accept', 'X-Requested-With']),
  );
}

/** One store case for `route`: the malformations the route can meet, weighted by what it reads. */
export function storeCaseArb(route: FuzzRoute): fc.Arbitrary<FuzzCase> {
  const body = writeBodyOf(route);
  const params = ['store_id', ...paramNames(route)];
  const arbitraries = sharedMalformations(route, {
    headerChanges: headerChangeArb(route),
    takesBody: body !== undefined,
    queryParam: storeQueryParamArb,
    queryWeightOnGet: 4,
    repeatedName: 'page',
  });
  arbitraries.push({
    weight: params.length > 1 ? 3 : 1,
    arbitrary: fc.record({ kind: fc.constant('odd-path-param' as const), param: fc.constantFrom(...params), value: oddPathValueArb }),
  });
  if (body) {
    const members = fc
      .uniqueArray(fc.constantFrom(...body.members), { minLength: 1, maxLength: 3, selector: (member) => member.name })
      .chain((picked) => fc.tuple(...picked.map((member) => member.wrong.map((value) => [member.name, value] as const))))
      .map((entries): Malformation => ({ kind: 'wrong-member-types', members: Object.fromEntries(entries) }));
    arbitraries.push({ weight: 6, arbitrary: members });
  }
  return fc.oneof(...arbitraries).map((malformation) => fuzzCase(route, malformation));
}

/** The raw path of the route against the store, with the case's path changes. */
function storeTarget(testCase: FuzzCase, world: StoreWorldState): string {
  const { route, malformation } = testCase;
  let storeSegment = String(world.storeId);
  const segments = route.segments.map((segment, i) => {
    if ('literal' in segment) return segment.literal;
    // A parameter names the resource of the literal before it: products/:id, products/sku/:sku.
    const value = world.ids[paramResource(route, i)] ?? '1';
    return malformation.kind === 'odd-path-param' && malformation.param === segment.param ? malformation.value : value;
  });
  if (malformation.kind === 'odd-path-param' && malformation.param === 'store_id') storeSegment = malformation.value;
  let version: string = STORE_CONTRACT.version;
  if (malformation.kind === 'unknown-route') {
    const { change } = malformation;
    if (change.how === 'unknown-resource') segments.splice(0, 1, change.segment);
    if (change.how === 'extra-segments') segments.push(...change.segments);
    if (change.how === 'other-version') version = change.version;
  }
  return `/${[version, storeSegment, ...segments].join('/')}`;
}

/** The bytes of a case against the store the world holds now. */
export function storeRequest(testCase: FuzzCase, world: StoreWorldState): RawRequest {
  const { route, malformation } = testCase;
  const headers: HeaderLine[] = [
    ['Host', 'fuzz.test'],
    ['User-Agent', FUZZ_USER_AGENT],
    ['Authentication', `bearer ${world.token}`],
  ];
  const body = writeBodyOf(route);
  let base: RawRequest = { method: route.method, target: '', headers, framing: 'length' };
  if (body) {
    const json = malformation.kind === 'wrong-member-types' ? { ...body.valid, ...malformation.members } : body.valid;
    base = { ...base, headers: [...headers, ['Content-Type', STORE_CONTRACT.jsonContentType]], body: Buffer.from(JSON.stringify(json)) };
  }
  return applyMalformation(base, malformation, {
    target: storeTarget(testCase, world),
    jsonType: STORE_CONTRACT.jsonContentType,
    fill: (value) => value.replaceAll(TOKEN, world.token).replaceAll(OTHER_TOKEN, world.otherToken),
  });
}
