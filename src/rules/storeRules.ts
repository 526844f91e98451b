import { defineRules, type Rule } from './Rule.ts';

/**
 * The rules of the Store Commerce API, one entry each. Ids are stable: tests,
 * the twin and the coverage report refer to them.
 * `spec` rules come from ../shared/specs/store-commerce-api.md;
 * `field-notes` rules are the twin's choices where the spec says "not shown"
 * (ASSUMPTIONS.md says why each was chosen).
 */
// `as const`: every id is a literal, so a misspelt rule id in a test does not compile.
const rules = [
  // What the service does / Common request rules
  {
    id: 'store.json.no-root-element',
    section: 'What the service does',
    source: 'spec',
    needs: 'any',
    text: 'Responses are JSON with no root element: a resource is the object itself, a collection is a bare JSON array.',
  },
  { id: 'store.json.snake-case-keys', section: 'What the service does', source: 'spec', needs: 'any', text: 'Attribute keys are snake_case.' },
  {
    id: 'store.versioning.v1-path',
    section: 'Versioning',
    source: 'spec',
    needs: 'any',
    text: 'Paths are {base_url}/v1/{store_id}/...: the version segment v1 comes directly after the host and before the store id.',
  },
  {
    id: 'store.versioning.unknown-version-404',
    section: 'Versioning',
    source: 'field-notes',
    needs: 'any',
    text: 'A version segment other than v1 is not served (404).',
  },
  {
    id: 'store.http.head-any-resource',
    section: 'Common request rules',
    source: 'spec',
    needs: 'any',
    text: 'HEAD is allowed on any resource and returns the headers of the GET without a body.',
  },
  {
    id: 'store.http.user-agent-required',
    section: 'Authentication',
    source: 'spec',
    needs: 'any',
    text: 'A request without a User-Agent header answers 400 Bad Request.',
  },
  {
    id: 'store.http.content-type-required',
    section: 'Errors',
    source: 'spec',
    needs: 'any',
    // Its probes POST to /products: a provider that breaks the rule would create a product.
    writes: true,
    text: 'A request with a body but no Content-Type header answers 415 Unsupported Media Type.',
  },
  {
    id: 'store.http.non-json-content-type-415',
    section: 'Requests',
    source: 'field-notes',
    needs: 'any',
    writes: true,
    text: 'A body sent with a Content-Type other than application/json (text/plain) answers 415; the contract speaks only of a missing Content-Type.',
  },
  {
    id: 'store.http.put-empty-body-content-length',
    section: 'Common request rules',
    source: 'spec',
    needs: 'any',
    writes: true,
    text: 'A PUT without a body must send Content-Length: 0; the provider accepts such a PUT.',
  },
  {
    id: 'store.http.put-without-length-411',
    section: 'Common request rules',
    source: 'field-notes',
    needs: 'any',
    writes: true,
    text: 'A PUT with neither a body nor Content-Length: 0 answers 411 Length Required.',
  },
  {
    id: 'store.headers.main-language',
    section: 'Localized properties',
    source: 'spec',
    needs: 'any',
    text: 'Every response, errors included, carries X-Main-Language with the store main language code.',
  },

  // Authentication
  {
    id: 'store.auth.authentication-header',
    section: 'Authentication',
    source: 'spec',
    needs: 'any',
    text: 'The access token is accepted in the header Authentication with the value "bearer <ACCESS_TOKEN>".',
  },
  {
    id: 'store.auth.missing-or-invalid-token-401',
    section: 'Authentication',
    source: 'field-notes',
    needs: 'any',
    text: 'A missing or wrong token answers 401 {"code":401,"message":"Unauthorized","description":"Invalid access token"}.',
  },
  {
    id: 'store.auth.token-scoped-to-store',
    section: 'What the service does',
    source: 'field-notes',
    needs: 'twin',
    text: "A store's token does not open another store (401).",
  },

  // Errors
  {
    id: 'store.errors.invalid-json-400',
    section: 'Errors',
    source: 'spec',
    needs: 'any',
    // Its probe POSTs to /products: a provider that breaks the rule could create a product.
    writes: true,
    text: 'A body that is not valid JSON answers 400 with a JSON object holding a string member error.',
  },
  {
    id: 'store.errors.validation-422',
    section: 'Errors',
    source: 'spec',
    needs: 'any',
    writes: true,
    text: 'An invalid field answers 422 with a JSON object whose keys are field names and whose values are arrays of message strings.',
  },
  {
    id: 'store.errors.image-src-blank-422',
    section: 'Product',
    source: 'spec',
    needs: 'any',
    writes: true,
    text: 'An image with a blank src answers 422 with a field-error body whose src lists a "can\'t be blank" message.',
  },
  {
    id: 'store.errors.field-error-body-exact',
    section: 'Error bodies seen in the docs',
    source: 'field-notes',
    needs: 'any',
    writes: true,
    text: 'A 422 on one field is exactly {"<field>": ["<message>"]}, as the docs show for images ({"src":["can\'t be blank"]}); mixed forms with code/message/description exist too.',
  },
  {
    id: 'store.errors.error-body-shape',
    section: 'Errors',
    source: 'field-notes',
    needs: 'any',
    text: 'Other errors answer {"code":<int>,"message":<reason phrase>,"description":<string or null>}.',
  },
  {
    id: 'store.errors.missing-resource-404',
    section: 'Errors',
    source: 'field-notes',
    needs: 'any',
    text: 'A missing resource answers 404 {"code":404,"message":"Not Found","description":...}.',
  },
  {
    id: 'store.errors.server-errors-retried',
    section: 'Errors',
    source: 'spec',
    needs: 'twin',
    text: '500, 502, 503 and 504 mean service trouble: the client retries later, with bounded back-off.',
  },
  {
    id: 'store.client.payment-required-message',
    section: 'Errors',
    source: 'spec',
    needs: 'twin',
    text: 'A client handles 402 by telling the user that payment must be resumed, not with a generic server error.',
  },
  {
    id: 'store.client.validation-error-fields',
    section: 'Errors',
    source: 'spec',
    needs: 'any',
    writes: true,
    text: 'The client turns a 422 into an error that carries the field messages.',
  },

  // Resources
  {
    id: 'store.categories.get-category',
    section: 'Known endpoints',
    source: 'spec',
    needs: 'any',
    text: 'GET /categories/{category_id} answers the category object: id, name, description, handle, parent, subcategories, created_at, updated_at.',
  },
  { id: 'store.categories.parent-null-top-level', section: 'Category', source: 'spec', needs: 'any', text: 'parent is null for a top-level category.' },
  {
    id: 'store.categories.subcategories-empty-array',
    section: 'Category',
    source: 'spec',
    needs: 'any',
    text: 'subcategories is an empty array for a category without children.',
  },
  {
    id: 'store.categories.tree-references',
    section: 'Category',
    source: 'field-notes',
    needs: 'any',
    text: 'parent is the id of the parent category and subcategories the ids of the direct children.',
  },
  {
    id: 'store.categories.crud',
    section: 'Category',
    source: 'field-notes',
    needs: 'any',
    writes: true,
    text: 'POST /categories answers 201 with the category, PUT /categories/{id} 200, DELETE /categories/{id} 200 {}.',
  },
  { id: 'store.products.list', section: 'Known endpoints', source: 'spec', needs: 'any', text: 'GET /products answers a JSON array of product objects.' },
  {
    id: 'store.products.create',
    section: 'Known endpoints',
    source: 'spec',
    needs: 'any',
    writes: true,
    text: 'POST /products with name as a string or a localized object creates the product and answers it.',
  },
  {
    id: 'store.products.create-201',
    section: 'Known endpoints',
    source: 'field-notes',
    needs: 'any',
    writes: true,
    text: 'A successful create answers 201 with the full object.',
  },
  {
    id: 'store.products.crud',
    section: 'Product',
    source: 'field-notes',
    needs: 'any',
    writes: true,
    text: 'GET /products/{id} answers the product, PUT 200 with the product, DELETE 200 {}.',
  },
  {
    id: 'store.products.filters',
    section: 'Product',
    source: 'field-notes',
    needs: 'any',
    text: 'GET /products honours since_id, created_at_min, updated_at_min and fields.',
  },
  {
    id: 'store.timestamps.format',
    section: 'Category',
    source: 'spec',
    needs: 'any',
    text: 'Timestamps (*_at) are ISO 8601 with a numeric offset written without a colon: YYYY-MM-DDTHH:MM:SS+0000.',
  },

  // Localization
  {
    id: 'store.localized.always-object',
    section: 'Localized properties',
    source: 'spec',
    needs: 'any',
    text: 'A localized property (name, description, handle) is always an object keyed by language code, even with one active language.',
  },
  {
    id: 'store.localized.string-applies-to-all',
    section: 'Localized properties',
    source: 'spec',
    needs: 'any',
    writes: true,
    text: 'A plain string written to a localized property is applied to every language of the store.',
  },
  {
    id: 'store.localized.object-per-language',
    section: 'Localized properties',
    source: 'spec',
    needs: 'any',
    writes: true,
    text: 'An object written to a localized property sets one value per language code.',
  },
  {
    id: 'store.localized.unknown-language-422',
    section: 'Localized properties',
    source: 'field-notes',
    needs: 'any',
    writes: true,
    text: 'A language code the store lacks answers 422 naming the field.',
  },

  // Pagination
  { id: 'store.pagination.collection-is-array', section: 'Common request rules', source: 'spec', needs: 'any', text: 'A collection response is a JSON array.' },
  {
    id: 'store.pagination.default-page-size',
    section: 'Limits',
    source: 'spec',
    needs: 'any',
    text: 'Without per_page a page holds 30 items (fewer only on the last page).',
  },
  { id: 'store.pagination.max-page-size', section: 'Limits', source: 'spec', needs: 'any', text: 'per_page up to 200 is honoured.' },
  { id: 'store.pagination.per-page-over-max', section: 'Limits', source: 'field-notes', needs: 'any', text: 'per_page over 200 is served as 200.' },
  {
    id: 'store.pagination.first-page-default',
    section: 'Limits',
    source: 'spec',
    needs: 'any',
    text: 'Pages are numbered from 1 and omitting page returns the first page.',
  },
  {
    id: 'store.pagination.total-count',
    section: 'Common request rules',
    source: 'spec',
    needs: 'any',
    text: 'X-Total-Count is an integer, the total number of results.',
  },
  {
    id: 'store.pagination.link-full-urls',
    section: 'Common request rules',
    source: 'spec',
    needs: 'any',
    text: 'Link entries have rel values among next, last, first, prev, and each value is a full URL.',
  },
  {
    id: 'store.pagination.follow-links',
    section: 'Common request rules',
    source: 'spec',
    needs: 'any',
    text: 'Following Link next from the first page visits every item exactly once, X-Total-Count in all, and ends on a page without next.',
  },
  {
    id: 'store.pagination.link-rels-presence',
    section: 'Common request rules',
    source: 'field-notes',
    needs: 'any',
    text: 'first and prev appear after page 1, next and last before the last page, in the format <url>; rel="x" joined by ", ".',
  },
  {
    id: 'store.pagination.past-last-page-404',
    section: 'Common request rules',
    source: 'field-notes',
    needs: 'any',
    text: 'A page past the last answers 404 with description "Last page is N".',
  },
  {
    id: 'store.pagination.invalid-page-400',
    section: 'Limits',
    source: 'field-notes',
    needs: 'any',
    text: 'A page or per_page that is not a positive integer answers 400.',
  },

  // Rate limit
  {
    id: 'store.ratelimit.headers',
    section: 'Limits',
    source: 'spec',
    needs: 'any',
    text: 'Responses carry X-Rate-Limit-Limit (the bucket size, 40), X-Rate-Limit-Remaining and X-Rate-Limit-Reset (milliseconds until the bucket is empty).',
  },
  {
    id: 'store.ratelimit.bucket-429',
    section: 'Limits',
    source: 'spec',
    needs: 'any',
    text: 'A burst over the 40-request bucket answers 429 Too Many Requests.',
  },
  {
    id: 'store.ratelimit.leak-rate',
    section: 'Limits',
    source: 'spec',
    needs: 'twin',
    text: 'The bucket leaks 2 requests per second: after waiting, that many more requests are served.',
  },
  {
    id: 'store.ratelimit.reset-ms',
    section: 'Limits',
    source: 'spec',
    needs: 'twin',
    text: 'X-Rate-Limit-Reset is the milliseconds until the bucket is completely empty at 2 per second.',
  },
  { id: 'store.ratelimit.per-store-and-token', section: 'Limits', source: 'field-notes', needs: 'twin', text: 'Each store and token has its own bucket.' },
  {
    id: 'store.client.paces-to-bucket',
    section: 'Limits',
    source: 'spec',
    needs: 'twin',
    text: 'The client paces itself to the bucket so normal use never meets a 429, and waits one out from the rate headers when it comes.',
  },

  // Suspension and events
  {
    id: 'store.suspension.every-call-402',
    section: 'States and transitions',
    source: 'spec',
    needs: 'twin',
    text: 'While the store is suspended every API call answers 402; after payment, calls work again.',
  },
  {
    id: 'store.webhooks.registration',
    section: 'Webhooks',
    source: 'field-notes',
    needs: 'any',
    writes: true,
    text: 'POST /webhooks {event,url} answers 201 {id,event,url,created_at,updated_at}; app/suspended and app/resumed can be registered.',
  },
  {
    id: 'store.webhooks.invalid-registration-422',
    section: 'Webhooks',
    source: 'field-notes',
    needs: 'any',
    writes: true,
    text: 'An unknown event or a non-https url answers 422 naming event or url.',
  },
  {
    id: 'store.webhooks.suspension-events',
    section: 'Webhooks',
    source: 'spec',
    needs: 'twin',
    text: 'app/suspended is delivered when access is suspended and app/resumed when it is resumed.',
  },
  {
    id: 'store.webhooks.not-called-while-suspended',
    section: 'Webhooks',
    source: 'spec',
    needs: 'twin',
    text: 'Webhooks are not called while access is suspended.',
  },
  {
    id: 'store.webhooks.hmac-signature',
    section: 'Webhooks',
    source: 'field-notes',
    needs: 'twin',
    text: 'Deliveries carry X-Linkedstore-HMAC-SHA256, the lower-case hex HMAC-SHA256 of the raw body keyed with the app secret.',
  },

  // Storefront scripts: checked in a browser (suites/storefront); on live, on the product page STOREFRONT_URL names.
  {
    id: 'store.storefront.on-change-variant',
    section: 'Storefront script event',
    source: 'spec',
    needs: 'any',
    text: 'LS.registerOnChangeVariant(callback): when the chosen product variant changes, callback is called with one argument, a variant object.',
  },
  {
    id: 'store.storefront.variant-element',
    section: 'Variant (storefront script object)',
    source: 'spec',
    needs: 'any',
    text: "The variant object's member element is a string holding a selector for the container of the chosen variant's form.",
  },
  {
    id: 'store.storefront.works-while-suspended',
    section: 'States and transitions',
    source: 'spec',
    needs: 'twin',
    text: 'Storefront scripts are not included in the suspension: while every API call answers 402, the product page and its variant event still work.',
  },
] as const satisfies readonly Rule[];

export const STORE_RULES = defineRules(rules);

export type StoreRuleId = (typeof rules)[number]['id'];
