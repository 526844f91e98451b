/**
 * What the store twin answers a request, walked in the order ASSUMPTIONS.md
 * documents ("Check order: version, User-Agent, token, suspension, bucket,
 * injected faults, body, route"), then the route's own rules. Each step
 * cites the contract (store-commerce-api.md) or the ASSUMPTIONS.md row it comes
 * from; where neither settles an answer the oracle allows each answer the
 * documentation gives for that route, and says so.
 */
import { STORE_CONTRACT } from '../../../src/rules/storeContract.ts';
import { MAX_BODY_BYTES } from '../../../src/twins/serving/requestBody.ts';
import { jsonBodyOf, type Expectation } from '../expectation.ts';
import type { RawAnswer } from '../exchange.ts';
import { matchesPath, paramValues, type FuzzRoute } from '../fuzzRoute.ts';
import type { RawRequest } from '../rawRequest.ts';
import { bodyBytes, brokenBody, declaresBody, effectiveHeaders, httpProblem, mediaType, pathSegments, queryOf, readJson } from '../requestView.ts';
import type { Verdict } from '../verdict.ts';
import { DATE_FILTERED_COLLECTIONS, DATE_FILTERS, PAGE_PARAMS, dateVerdict, pageValueAccepted } from './storeQuery.ts';
import { definedMethods, paramResource } from './storeRouteTable.ts';
import type { StoreWorldState } from './storeWorld.ts';
import { writeBodyOf } from './storeWriteBodies.ts';

export interface StoreOracleInput {
  readonly routes: readonly FuzzRoute[];
  /** Paths of GET routes that answer collections. */
  readonly collections: ReadonlySet<string>;
  readonly world: StoreWorldState;
}

const standardOrValidation = (status: number): string => (status === 422 ? 'store/error-validation' : 'store/error-standard');

const MIXED_FORM_MEMBERS = ['code', 'message', 'description'];

/**
 * A 422 naming a field called `description` (a product and category field)
 * is the contract's plain form, `{"description": ["..."]}`; but
 * error-validation.schema.json types `description` as the mixed form's string
 * member and refuses it. Until the schema tells the two apart, the schema reads
 * such a field under another key.
 */
function plainFormView(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [MIXED_FORM_MEMBERS.includes(key) && Array.isArray(value) ? `field:${key}` : key, value]),
  );
}

function expect(rule: string, statuses: readonly number[], extra: Partial<Expectation> = {}): Expectation {
  return {
    rule,
    statuses,
    contentType: STORE_CONTRACT.jsonContentType,
    errorSchema: standardOrValidation,
    schemaView: plainFormView,
    // Contract, Localized properties: "Every response carries a header X-Main-Language".
    requiredHeaders: ['x-main-language'],
    ...extra,
  };
}

/** The description a documented standard error carries. */
function description(expected: string | null): (answer: RawAnswer) => string | undefined {
  return (answer) => {
    const body = jsonBodyOf(answer) as { description?: unknown } | undefined;
    if (body === undefined || body.description === expected) return undefined;
    return `description ${JSON.stringify(body.description)}, documented ${JSON.stringify(expected)}`;
  };
}

// ASSUMPTIONS.md: 'A missing resource answers 404 "Product with such id does not exist" / "Category ..." / "Webhook ..." / "Product with such sku does not exist"'.
const MISSING: Readonly<Record<string, string>> = {
  products: 'Product with such id does not exist',
  categories: 'Category with such id does not exist',
  webhooks: 'Webhook with such id does not exist',
  sku: 'Product with such sku does not exist',
};

/** The token of the first header holding `bearer <token>` (ASSUMPTIONS.md: "Authentication wins when both are sent"; the scheme is case-insensitive). */
function tokenOf(headers: ReadonlyMap<string, string>): string | undefined {
  for (const name of ['authentication', 'authorization']) {
    const match = /^bearer\s+(\S+)$/i.exec(headers.get(name) ?? '');
    if (match) return match[1];
  }
  return undefined;
}

const NODE_REFUSES = 'ASSUMPTIONS.md "Requests Node cannot parse get 400 (431 for oversized headers) in the standard shape"';

/** An answer from the headers alone, which Node's 400 for a broken body may beat to the client. */
function beforeBody(expected: Expectation, broken: string | undefined): Expectation {
  if (broken === undefined) return expected;
  return { ...expected, rule: `${expected.rule}, or 400 if Node refuses the body first (${broken})`, statuses: [...expected.statuses, 400], check: undefined };
}

export function storeExpectation(request: RawRequest, input: StoreOracleInput): Expectation {
  const { world } = input;
  const problem = httpProblem(request);
  if (problem) return expect(`${NODE_REFUSES}: ${problem.why}`, [problem.status]);
  const broken = brokenBody(request);

  const [version, storeSegment, ...resource] = pathSegments(request.target);
  if (version !== STORE_CONTRACT.version || storeSegment === undefined) {
    return beforeBody(
      expect('ASSUMPTIONS.md "A version segment other than v1 answers 404 ... description null" (store.versioning.unknown-version-404)', [404], {
        check: description(null),
      }),
      broken,
    );
  }

  const headers = effectiveHeaders(request);
  if ((headers.get('user-agent') ?? '').trim() === '') {
    return beforeBody(
      expect('contract, Authentication 3: without a User-Agent the response is 400 (store.http.user-agent-required)', [400], {
        check: description('User-Agent header is required: name the app and a contact URL or e-mail'),
      }),
      broken,
    );
  }
  if (storeSegment !== String(world.storeId) || tokenOf(headers) !== world.token) {
    return beforeBody(
      expect('ASSUMPTIONS.md "Missing, wrong or another store\'s token: 401 ... Invalid access token"; an unknown store id answers the same', [401], {
        check: description('Invalid access token'),
      }),
      broken,
    );
  }

  const method = request.method;
  let json: unknown;
  if (declaresBody(request)) {
    if (mediaType(headers) !== 'application/json') {
      return beforeBody(
        expect('contract, Errors: 415 for a body without Content-Type application/json (store.http.content-type-required)', [415], {
          check: description('Content-Type should be application/json'),
        }),
        broken,
      );
    }
    if (broken) return expect(`${NODE_REFUSES}: ${broken}`, [400]);
    const bytes = bodyBytes(request);
    if (bytes.length > MAX_BODY_BYTES) return expect('ASSUMPTIONS.md "Bodies are limited to 1 MiB: over it, 413 in the standard shape"', [413]);
    if (bytes.length > 0) {
      const read = readJson(bytes);
      if (!read.valid) {
        return expect('contract, Errors: 400 with a string member error for a body that is not valid JSON (store.errors.invalid-json-400)', [400], {
          errorSchema: () => 'store/error-invalid-json',
        });
      }
      json = read.value;
      const isObject = typeof json === 'object' && json !== null && !Array.isArray(json);
      if (!isObject && ['POST', 'PUT', 'PATCH'].includes(method)) {
        return expect('ASSUMPTIONS.md "Valid JSON that is not an object on POST/PUT: 400 ... Invalid input format"', [400], {
          check: description('Invalid input format'),
        });
      }
      if (!isObject) json = undefined;
    }
  } else if (method === 'PUT' && !headers.has('content-length') && !headers.has('transfer-encoding')) {
    return expect('ASSUMPTIONS.md "A PUT with neither a body nor Content-Length: 0 ...: 411" (contract, Common request rules 4)', [411]);
  }

  const onPath = input.routes.filter((route) => matchesPath(route, resource));
  if (onPath.length === 0) return expect('ASSUMPTIONS.md "An unknown path answers 404 with description: null"', [404], { check: description(null) });
  const asMethod = method === 'HEAD' ? 'GET' : method;
  const route = onPath.find((candidate) => candidate.method === asMethod);
  if (!route) {
    const allow = definedMethods(input.routes, onPath[0]?.path ?? '');
    return expect(`ASSUMPTIONS.md "a known path with another method answers 405 with Allow" (${allow.join(', ')})`, [405], {
      check: (answer) => {
        const sent = (answer.headers.get('allow') ?? '').split(',').map((name) => name.trim());
        return sent.length === allow.length && allow.every((name) => sent.includes(name))
          ? undefined
          : `Allow ${JSON.stringify(answer.headers.get('allow') ?? null)}, the route defines ${allow.join(', ')}`;
      },
    });
  }
  return routeExpectation(route, resource, request, json, input);
}

/** The route's own rules: ids, then query or body. */
function routeExpectation(route: FuzzRoute, resource: readonly string[], request: RawRequest, json: unknown, input: StoreOracleInput): Expectation {
  const values = paramValues(route, resource);
  for (const [i, segment] of route.segments.entries()) {
    if (!('param' in segment)) continue;
    const kind = paramResource(route, i);
    const value = values[segment.param] ?? '';
    // "an id that is not all digits (abc, -1, 1e9999) is missing"; other digits name no resource of the fuzzer's store.
    if (value !== input.world.ids[kind]) {
      return expect(`ASSUMPTIONS.md "A missing resource answers 404 ${MISSING[kind] ?? ''}"`, [404], { check: description(MISSING[kind] ?? null) });
    }
  }
  if (route.method === 'GET') return readExpectation(route, request, input);
  if (route.method === 'DELETE') return expect('field notes, Product/Category: DELETE answers 200 {}', [200]);
  return writeExpectation(route, json, input);
}

/** A parameter's verdict; a repeated one whose values disagree is unclear (which value counts is not documented). */
function paramVerdict(query: URLSearchParams, name: string, judge: (value: string) => Verdict): Verdict {
  const [first, ...others] = query.getAll(name).map(judge);
  if (first === undefined) return 'accepted';
  return others.every((each) => each === first) ? first : 'unclear';
}

function readExpectation(route: FuzzRoute, request: RawRequest, input: StoreOracleInput): Expectation {
  const query = queryOf(request.target);
  const keys = [...query.keys()];
  if (!input.collections.has(route.path)) {
    // A single resource documents `fields` only, and `fields` ignores names it does not know.
    if (keys.every((key) => key === 'fields')) return expect('a GET of a resource the store holds answers 200', [200]);
    return expect('not documented: a parameter a single-resource GET does not read', [200, 400]);
  }
  const dated = DATE_FILTERED_COLLECTIONS.has(route.path);
  const verdicts = PAGE_PARAMS.map((name) => paramVerdict(query, name, (value) => (pageValueAccepted(value) ? 'accepted' : 'refused')));
  if (dated) verdicts.push(...DATE_FILTERS.map((name) => paramVerdict(query, name, dateVerdict)));
  if (verdicts.includes('refused')) {
    return expect('ASSUMPTIONS.md: a page or per_page that is not a positive integer, or a bad date filter, is 400 naming the parameter', [400]);
  }
  const documented = new Set<string>([...PAGE_PARAMS, 'fields', ...(dated ? DATE_FILTERS : [])]);
  if (verdicts.includes('unclear') || keys.some((key) => !documented.has(key))) {
    return expect('not documented: a repeated parameter, a parameter this list does not read, or a date form the row does not settle', [200, 400, 404]);
  }
  // "A page past the last: 404 Last page is N"; a date window may leave nothing ("Last page is 0").
  const page = query.get('page');
  const mayBePastLast = (page !== null && !/^0*1$/.test(page)) || (dated && DATE_FILTERS.some((name) => query.has(name)));
  return expect('contract, Common request rules 5: a collection answers 200 with an array, 404 past the last page', mayBePastLast ? [200, 404] : [200]);
}

const LISTS_NAMED_BY_ITEM = ['variants', 'images'];

function writeExpectation(route: FuzzRoute, json: unknown, input: StoreOracleInput): Expectation {
  const body = writeBodyOf(route);
  const written = (json ?? {}) as Record<string, unknown>;
  const facts = { languages: input.world.languages, categoryIds: input.world.categoryIds };
  const read = (body?.members ?? []).filter((member) => Object.hasOwn(written, member.name) && (route.method === 'POST' || !member.createOnly));
  const verdicts = read.map((member) => [member.name, member.accepts(written[member.name], facts)] as const);
  const refused = verdicts.filter(([, each]) => each === 'refused').map(([name]) => name);
  if (route.method === 'POST') refused.push(...(body?.required ?? []).filter((name) => !Object.hasOwn(written, name) && !refused.includes(name)));
  if (refused.length > 0) {
    return expect(`contract, Errors: 422 with field names as keys (store.errors.validation-422), naming ${refused.join(', ')}`, [422], {
      check: (answer) => {
        const keys = Object.keys(jsonBodyOf(answer) ?? {});
        // A list's errors name the item's member (a variant's price, an image's src), not the list.
        const missing = refused.filter((name) => !keys.includes(name) && !LISTS_NAMED_BY_ITEM.includes(name));
        return missing.length === 0 ? undefined : `the 422 does not name ${missing.join(', ')}`;
      },
    });
  }
  const done = route.method === 'POST' ? 201 : 200;
  const rule =
    route.method === 'POST'
      ? 'ASSUMPTIONS.md "Creates answer 201 with the full object"'
      : 'ASSUMPTIONS.md "PUT answers 200 with the resource" (an empty body is an empty update)';
  if (verdicts.some(([, each]) => each === 'unclear')) return expect(`${rule}; 422 where a member's value is not settled by the documentation`, [done, 422]);
  return expect(rule, [done]);
}
