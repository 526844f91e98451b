import { defineRules, type Rule } from './Rule.ts';

/**
 * The rules of the Media Tracking API, one entry each. `spec` rules come from
 * ../shared/specs/media-tracking-api.md; `field-notes` rules are the twin's
 * choices where the spec says "not shown" (ASSUMPTIONS.md, media section).
 * The route table itself is src/rules/mediaRoutes.ts.
 */
// `as const`: every id is a literal, so a misspelt rule id in a test does not compile.
const rules = [
  // What the service does / JSON:API
  {
    id: 'media.jsonapi.media-type',
    section: 'What the service does',
    // JSON:API, which the spec says the interface uses, has its own media type.
    source: 'contract',
    needs: 'any',
    text: 'Responses carry Content-Type: application/vnd.api+json.',
  },
  {
    id: 'media.jsonapi.accept-parameters-406',
    section: 'What the service does',
    // JSON:API, Content Negotiation (server responsibilities): a MUST of the standard the spec adopts. Which parameters
    // the real service tolerates beyond it (q, a charset) is left open; the probe names a parameter JSON:API does not define.
    source: 'contract',
    needs: 'any',
    text: 'A request whose Accept names the JSON:API media type only with a media type parameter (other than ext or profile) answers 406 Not Acceptable.',
  },
  {
    id: 'media.jsonapi.content-type-parameters-415',
    section: 'What the service does',
    // JSON:API, Content Negotiation (server responsibilities), a MUST. Its probe is a write a provider that breaks the rule would carry out.
    source: 'contract',
    needs: 'token',
    writes: true,
    text: 'A write whose Content-Type is the JSON:API media type with a media type parameter (other than ext or profile) answers 415 Unsupported Media Type, and is not carried out.',
  },
  {
    id: 'media.jsonapi.document-structure',
    section: 'What the service does',
    source: 'contract',
    needs: 'any',
    text: 'Responses are JSON:API documents: a single resource, a collection, or included resources under data / included, never data and errors together.',
  },
  {
    id: 'media.jsonapi.string-ids',
    section: 'What the service does',
    source: 'contract',
    needs: 'any',
    text: 'Resource identifiers are strings, in resource objects and in relationship data.',
  },
  {
    id: 'media.jsonapi.resource-object',
    section: 'Endpoints',
    source: 'contract',
    needs: 'any',
    text: 'A resource object has id, type, attributes and relationships, and type names the collection it was asked from.',
  },
  {
    id: 'media.jsonapi.camel-case-members',
    section: 'Media type, keys, ids',
    source: 'reliance',
    reliedOnBy: 'MediaClient and its types (canonicalTitle, episodeCount, the libraryEntries type) and the media pacts, whose bodies name camelCase members',
    needs: 'any',
    text: 'Member names are camelCase; types are camelCase plurals; path segments are dasherized.',
  },
  {
    id: 'media.jsonapi.included',
    section: 'Endpoints',
    source: 'contract',
    needs: 'any',
    text: 'include= adds the related resources under included, and the relationship carries their identifiers in data.',
  },
  {
    id: 'media.jsonapi.included-unique',
    section: 'Endpoints',
    // The spec's bodies are JSON:API compound documents, and JSON:API 1.0 (Compound Documents) says: "A compound
    // document MUST NOT include more than one resource object for each type and id pair." Clients index included
    // resources by type and id, so a second copy (which may differ) leaves them to guess which one is right.
    source: 'contract',
    needs: 'any',
    text: 'A compound document holds at most one resource object for each type and id pair, across data and included (JSON:API, Compound Documents).',
  },
  {
    id: 'media.jsonapi.sparse-fields',
    section: 'Filters, sort, include, fields',
    source: 'reliance',
    reliedOnBy: 'MediaClient.list and get, whose fields option an integration asks sparse documents with',
    needs: 'any',
    text: 'fields[type]=a,b returns only those attributes.',
  },
  {
    id: 'media.jsonapi.filters',
    section: 'Parameters',
    source: 'contract',
    needs: 'any',
    text: 'filter[...] query parameters narrow a collection; filter[id] is available everywhere.',
  },
  {
    id: 'media.jsonapi.sort',
    section: 'Filters, sort, include, fields',
    source: 'reliance',
    reliedOnBy: 'MediaClient.list, whose sort option an integration reads ordered lists with',
    needs: 'any',
    text: 'sort=a,-b orders a collection by those attributes, - for descending.',
  },

  {
    id: 'media.jsonapi.show-identity',
    section: 'Standard resource routes (set C)',
    // JSON:API 1.0, Fetching Resources: GET /{collection}/{id} answers "the requested resource" as primary data.
    source: 'contract',
    needs: 'any',
    text: 'GET /{collection}/{id} answers that resource: data has the id asked for and the type the collection serves, and the same attributes as that resource in the collection.',
  },
  {
    id: 'media.jsonapi.full-linkage',
    section: 'Endpoints',
    // JSON:API 1.0, Compound Documents: "every included resource MUST be identified by at least one resource
    // identifier object in the same document" (full linkage), unless a sparse fieldset left the relationship out.
    source: 'contract',
    needs: 'any',
    text: 'Every included resource is named by the linkage of a relationship in the same document: included holds the related resources of these resources, nothing else (JSON:API, Compound Documents).',
  },
  {
    id: 'media.jsonapi.parameters-combined',
    section: 'Filters, sort, include, fields',
    source: 'reliance',
    reliedOnBy:
      'MediaClient.list and iterate, which send filter, include, fields, sort and page together, and the media pact "a filtered, included, paged anime list" (filter[subtype], include, page[limit], page[offset] in one request)',
    needs: 'any',
    text: 'Each query parameter keeps its effect when sent with the others: filter with sort, include with fields, page[limit] and page[offset] with a filter, filter[text] with pagination.',
  },

  // Links: each leads to what it says (JSON:API, Document Links, Resource Links, Relationship Links, Pagination).
  {
    id: 'media.jsonapi.self-links',
    section: 'Endpoints',
    // JSON:API 1.0, Resource Links: "A server MUST respond to a GET request to the specified URL [a resource's
    // links.self] with a response that includes the resource as the primary data"; a document's links.self is
    // "the link that generated the current response document".
    source: 'contract',
    needs: 'any',
    text: "A resource's links.self answers that resource (the same type and id) as primary data; a document's links.self, when present, answers the same primary data.",
  },
  {
    id: 'media.relationships.self-link',
    section: 'Relationships between resources',
    // JSON:API 1.0, Fetching Relationships: "A server MUST support fetching relationship data for every relationship
    // URL provided as a self link"; "The primary data in the response document MUST match the appropriate value for
    // resource linkage".
    source: 'contract',
    needs: 'any',
    text: "A relationship's links.self answers that relationship's linkage: the same identifiers as its data when included.",
  },
  {
    id: 'media.relationships.related-link',
    section: 'Relationships between resources',
    // JSON:API 1.0, Relationship Links and Fetching Resources: a related resource link "provides access to resource
    // objects linked in the relationship"; the types are the spec's relationship table (episodes.media points to anime).
    source: 'contract',
    needs: 'any',
    text: "A relationship's links.related answers the related resources of this resource: the ids of its linkage, of the type the relationship table names (a deprecated one: none).",
  },

  // Routes
  {
    id: 'media.routes.edge-prefix',
    section: 'What the service does',
    source: 'contract',
    needs: 'any',
    text: 'Every path begins with {base_url}/api/edge.',
  },
  {
    id: 'media.routes.standard',
    section: 'Standard resource routes (set C)',
    source: 'contract',
    needs: 'any',
    text: 'Each set-C collection serves index, create, show, update (PATCH and PUT) and destroy.',
  },
  {
    id: 'media.routes.read-only',
    section: 'Read-only routes',
    source: 'contract',
    needs: 'any',
    text: 'profile-link-sites, library-entry-logs and stats serve GET index and show.',
  },
  {
    id: 'media.routes.special',
    section: 'Special routes',
    source: 'contract',
    needs: 'any',
    // Routes the real service is known not to serve are observations per route (ROUTES_NOT_SERVED_ON_LIVE), not for the rule.
    text: 'Every special route of the spec is served.',
  },
  {
    id: 'media.routes.unknown-route-404',
    section: 'Errors',
    source: 'field-notes',
    needs: 'any',
    text: 'A route the API does not have answers 404 {"errors":[{"status":404,"title":"Route Not Found"}]}.',
  },

  // Relationships
  {
    id: 'media.relationships.table',
    section: 'Relationships between resources',
    source: 'contract',
    needs: 'any',
    text: 'anime, manga and episodes carry the relationships the spec table lists.',
  },
  {
    id: 'media.relationships.episode-media',
    section: 'Relationships between resources',
    source: 'contract',
    needs: 'any',
    text: "An episode's media relationship points to its anime.",
  },
  {
    id: 'media.relationships.deprecated-marked',
    section: 'Relationships between resources',
    source: 'contract',
    needs: 'any',
    text: 'Deprecated relationships are kept only as empty relationships marked deprecated, with their replacement.',
    knownDefect: {
      text: 'real responses show deprecated relationships as ordinary {links} relationships with no marker',
      // Kept, with links, and no marker: anything else (dropped, a marker naming the wrong replacement) still fails.
      matches: (value) => {
        const rel = value as { links?: Record<string, unknown>; meta?: { deprecated?: unknown } } | undefined;
        return !!rel && typeof rel.links === 'object' && rel.links !== null && Object.keys(rel.links).length > 0 && rel.meta?.deprecated === undefined;
      },
    },
  },

  // Visibility
  {
    id: 'media.visibility.adult-direct-404',
    section: 'Visibility',
    source: 'contract',
    needs: 'token',
    text: 'An adult-flagged media item requested directly without authentication answers 404.',
  },
  {
    id: 'media.visibility.adult-include-null',
    section: 'Visibility',
    source: 'contract',
    needs: 'token',
    text: "Included through a library entry's relationship without authentication, an adult media item comes back as null data.",
  },
  {
    id: 'media.visibility.adult-hidden-from-lists',
    // The spec's Visibility rules: an adult item is hidden from unauthenticated requests, lists included.
    section: 'Visibility',
    source: 'contract',
    needs: 'token',
    text: 'Adult media are left out of anonymous lists and of meta.count.',
  },
  {
    id: 'media.visibility.adult-visible-signed-in',
    section: 'Adult content',
    source: 'field-notes',
    needs: 'token',
    text: 'A signed-in user who allows adult content sees adult media directly, in lists and through includes.',
  },

  // Errors
  {
    id: 'media.errors.jsonapi-errors',
    section: 'Errors',
    source: 'contract',
    needs: 'any',
    text: 'Error responses use the JSON:API error structure: a top-level errors array of error objects.',
  },
  {
    id: 'media.errors.hidden-404',
    section: 'Errors',
    source: 'contract',
    needs: 'any',
    text: 'A resource that does not exist or is hidden answers 404.',
  },
  {
    id: 'media.errors.status-agrees',
    section: 'Errors',
    // JSON:API 1.0, Error Objects: status is "the HTTP status code applicable to this problem"; with several problems
    // "the most generally applicable HTTP error code SHOULD be used", so only their class must agree then.
    source: 'contract',
    needs: 'any',
    text: "An error object's status, when present, is the answer's HTTP status (as a string or, in the real service's custom controllers, an integer); with several error objects, each is of the answer's class (4xx or 5xx).",
  },
  {
    id: 'media.errors.members',
    section: 'Errors (JSON:API error objects)',
    source: 'field-notes',
    needs: 'any',
    text: 'Error objects carry title, detail, code and status (strings); 404 is "Record not found".',
  },
  {
    id: 'media.jsonapi.unsupported-query-400',
    section: 'Errors (JSON:API error objects)',
    // JSON:API 1.0, which the contract adopts: "If a server is unable to identify a relationship path or does not
    // support inclusion of resources from a path, it MUST respond with 400 Bad Request"; "If the server does not
    // support sorting as specified in the query parameter sort, it MUST return 400 Bad Request". The codes and
    // titles the real service answers are field notes (media.errors.bad-query-400).
    source: 'contract',
    needs: 'any',
    text: 'An include path the server cannot identify, and a sort it does not support, answer 400 Bad Request with a JSON:API error document.',
  },
  {
    id: 'media.errors.bad-query-400',
    section: 'Errors (JSON:API error objects)',
    source: 'field-notes',
    needs: 'any',
    text: 'A filter not allowed (102), an invalid include (112), an invalid sort (114) and a non-numeric id (103) answer 400.',
  },
  {
    id: 'media.errors.library-entries-need-filter',
    section: 'Filters, sort, include, fields',
    source: 'field-notes',
    needs: 'any',
    text: 'Listing library entries without any filter answers 400 "No filter provided".',
  },
  {
    id: 'media.errors.known-defect-adult-include-500',
    section: 'Errors',
    source: 'contract',
    needs: 'token',
    text: 'Known defect, not contract: an anonymous library entry with include=anime,anime.categories on an adult title has been reported to answer 500; the contract says null data.',
  },

  // Pagination
  {
    id: 'media.pagination.offset',
    section: 'Pagination (offset paginator)',
    source: 'field-notes',
    needs: 'any',
    text: 'page[limit] and page[offset] select a window of the collection; the default limit is 10.',
  },
  {
    id: 'media.pagination.meta-count',
    section: 'Pagination (offset paginator)',
    source: 'reliance',
    reliedOnBy: 'MediaClient.iterate (how many resources a walk must visit) and the media pact (meta.count matched as an integer)',
    needs: 'any',
    text: 'Collections carry meta.count, the size of the whole collection.',
  },
  {
    id: 'media.pagination.links',
    section: 'Pagination (offset paginator)',
    source: 'field-notes',
    needs: 'any',
    text: 'links.first (offset 0), prev only if offset > 0, next only if offset + limit < count, last at max(count − limit, 0); full URLs that echo the query.',
  },
  {
    id: 'media.pagination.first-last',
    section: 'Pagination (offset paginator)',
    source: 'reliance',
    reliedOnBy: 'integrations that go back to the start or jump to the end of a collection through links.first and links.last (the links the pacts state)',
    needs: 'any',
    text: 'Every page of a paginated collection carries links.first and links.last as full URLs under the API base; the last page carries no links.next.',
  },
  {
    id: 'media.pagination.follow-next',
    section: 'Pagination (offset paginator)',
    source: 'reliance',
    reliedOnBy: 'MediaClient.iterate, which walks a collection through links.next only',
    needs: 'any',
    text: 'Following links.next from the first page visits meta.count resources, each once.',
  },
  {
    id: 'media.pagination.same-listing',
    section: 'Pagination (offset paginator)',
    // JSON:API 1.0, Pagination: first, last, prev and next are "the first/last/previous/next page of data": of the
    // data this document pages, so the same filters, sort and page size; and "Concepts of order, as expressed in the
    // naming of pagination links, MUST remain consistent with JSON:API's sorting rules": sort orders the collection, not
    // each page (Sorting: the data "ordered according to the criteria specified").
    source: 'contract',
    needs: 'any',
    text: "links.first, prev, next and last lead to pages of the same listing: the same filters, sort, include, fields and page size; links.last to the collection's last resources; a sorted walk through links.next, filtered or not, visits meta.count resources, each matching the filter, in the sort order from the first to the last, across pages.",
  },
  {
    id: 'media.pagination.limit-bounds-400',
    section: 'Pagination (offset paginator)',
    source: 'field-notes',
    needs: 'any',
    text: 'page[limit] over the maximum (20) or 0 answers 400 Invalid page value.',
  },

  // Authentication and writes
  {
    id: 'media.auth.anonymous-reads',
    section: 'Authentication',
    source: 'contract',
    needs: 'any',
    text: 'Some reads work without authentication.',
  },
  {
    id: 'media.auth.bearer-token',
    section: 'Authentication',
    source: 'reliance',
    reliedOnBy: 'MediaClient, which signs every request with Authorization: Bearer <token>',
    needs: 'token',
    text: 'An access token is sent as Authorization: Bearer <token> and identifies the user.',
  },
  {
    id: 'media.auth.oauth-password-refresh-revoke',
    section: 'Authentication',
    source: 'field-notes',
    needs: 'twin',
    text: 'POST /api/oauth/token gives tokens for the password and refresh_token grants; POST /api/oauth/revoke revokes one, which then answers 401 Invalid token.',
  },
  // "The service uses OAuth 2" with its access token request: RFC 6749's MUSTs are contract (where the token
  // endpoint is, the field notes say). What the standard allows (400 or 401 for invalid_client) is never red.
  {
    id: 'media.auth.token-errors-rfc6749',
    section: 'Authentication',
    source: 'contract',
    needs: 'any',
    // Its probes POST to the token endpoint: a provider that took a wrong password would sign in.
    writes: true,
    text: 'The service uses OAuth 2: a refused access token request answers 400 (or 401 for a failed client authentication, invalid_client) with a JSON object whose error member is one of RFC 6749 5.2 codes; a wrong password or a refresh token never issued is invalid_grant.',
  },
  {
    id: 'media.auth.unknown-token-anonymous',
    section: 'Authentication',
    source: 'field-notes',
    needs: 'any',
    text: 'An unknown token is treated as anonymous.',
  },
  // Writes. What a write does is contract: set C names POST create, PATCH and PUT update, DELETE destroy, and a
  // write answered as a success that did not do that breaks every integration that syncs (update-applied,
  // create-destroy-applied). How it answers is not: "Success status codes per route: not shown", and error
  // statuses and members are "not shown" either, so the exact codes and bodies are the real service's (field notes).
  {
    id: 'media.writes.update-applied',
    section: 'Standard resource routes (set C)',
    source: 'contract',
    needs: 'token',
    writes: true,
    text: 'PATCH /{collection}/{id} updates the resource, and PUT does the same: a later GET shows the attributes sent, and so does the answer when it carries the resource (JSON:API, Updating Resources).',
  },
  {
    id: 'media.writes.create-destroy-applied',
    section: 'Standard resource routes (set C)',
    source: 'contract',
    needs: 'token',
    writes: true,
    text: 'POST /{collection} creates a resource that a later GET shows with the attributes sent; DELETE /{collection}/{id} destroys it, so a later GET answers 404.',
  },
  {
    id: 'media.writes.answer-is-resource',
    section: 'Standard resource routes (set C)',
    // JSON:API lets an update answer 204 with no document; MediaClient.create and update return the resource the
    // answer carries (and refuse an answer without one), so both must answer with it.
    source: 'reliance',
    reliedOnBy:
      'MediaClient.create and MediaClient.update, which return the document the answer carries (SingleDocument.data) and refuse an answer without a resource',
    needs: 'token',
    writes: true,
    text: 'A create answers the resource it created (the type posted, the attributes sent as the provider keeps them, a links.self that reads back the same resource); an update answers the resource with the values sent.',
  },
  // A write does what it says and nothing else. Counted on the signed-in user's library (meta.count of filter[userId]),
  // which on live assumes no other writer to that library during the run.
  {
    id: 'media.writes.create-adds-one',
    section: 'Standard resource routes (set C)',
    source: 'contract',
    needs: 'token',
    writes: true,
    text: "POST /{collection} creates one resource and DELETE destroys that one: the signed-in user's library count (meta.count of their library entries) is exactly one more after a library entry is created, and back where it was after its DELETE.",
  },
  {
    id: 'media.writes.create-linkage-as-sent',
    section: 'Standard resource routes (set C)',
    // JSON:API 1.1, Creating Resources: a relationship's data in a POST "represents the linkage the new resource is to have".
    source: 'contract',
    needs: 'token',
    writes: true,
    text: 'A created resource has the linkage posted: a library entry created for a user and an anime reads back, its relationships included, with that user and that anime and no other; so does the answer when its relationships carry data.',
  },
  {
    id: 'media.writes.update-keeps-the-rest',
    section: 'Standard resource routes (set C)',
    // JSON:API 1.1, Updating Resources: "If a request does not include all of the attributes for a resource, the server
    // MUST interpret the missing attributes as if they were included with their current values. The server MUST NOT
    // interpret missing attributes as null values"; the same for relationships. A server may change what it computes
    // ("updating the updatedAt attribute or a computed sha"): the timestamps it stamps from what was sent may move.
    source: 'contract',
    needs: 'token',
    writes: true,
    text: "PATCH and PUT of part of a resource leave the rest as it was: every attribute and relationship not sent keeps its value (missing attributes MUST be interpreted as if included with their current values, never as null), createdAt does not move, updatedAt does not go back, timestamps the server stamps from what was sent (progressedAt, startedAt, finishedAt) may move but not to null, and the user's library count is unchanged.",
  },
  {
    id: 'media.writes.bulk-applies-to-named',
    section: 'Special routes',
    source: 'reliance',
    reliedOnBy:
      'MediaClient.bulkUpdate (one change to every entry its filter selects, the updated entries returned) and the pact "a bulk update of library entries"',
    needs: 'token',
    writes: true,
    text: 'PATCH /library-entries/_bulk?filter[id]=a,b applies its change to every entry named and to no other: each reads back changed, the answer lists exactly those entries, another entry of the same library reads back as it was, and the library count is unchanged.',
  },
  {
    id: 'media.writes.refused-changes-nothing',
    section: 'Standard resource routes (set C)',
    // HTTP, which the API is served over (RFC 9110 15.5.16, 15.5.21): a 415 is the server "refusing to service the
    // request", a 422 "unable to process the contained instructions". The statuses themselves are the field notes'.
    source: 'contract',
    needs: 'token',
    writes: true,
    text: "A write the provider refuses (415 for a body not in the JSON:API media type, 422 for an invalid attribute) changes nothing: the user's library count, the entries of the anime a refused create named, and the entry a refused update named read back as before.",
  },
  {
    id: 'media.writes.status-codes',
    section: 'Media type, keys, ids',
    // The codes are "not shown" in the contract, and JSON:API lets a server "respond with other HTTP status codes": these are the real service's (201, 200, 204).
    source: 'field-notes',
    needs: 'token',
    writes: true,
    text: 'POST answers 201 with Location, PATCH 200, DELETE 204 with no body.',
  },
  {
    id: 'media.writes.media-type-415',
    // Its probe is a write a provider that breaks the rule would carry out.
    writes: true,
    section: 'Media type, keys, ids',
    source: 'field-notes',
    needs: 'token',
    text: 'A write without Content-Type application/vnd.api+json answers 415.',
  },
  {
    id: 'media.writes.forbidden-403',
    section: 'Errors (JSON:API error objects)',
    source: 'field-notes',
    needs: 'token',
    text: "Changing another user's resource answers 403 Update Forbidden / Destroy Forbidden.",
  },
  {
    id: 'media.writes.validation-422',
    section: 'Errors (JSON:API error objects)',
    source: 'field-notes',
    needs: 'token',
    writes: true,
    text: 'An invalid attribute answers 422 with code 100 and source.pointer /data/attributes/<field>.',
  },
  {
    id: 'media.special.trending',
    section: 'Special routes as the real server has them',
    source: 'field-notes',
    needs: 'any',
    text: '/trending/anime and /trending/manga answer {data: [...]}; another namespace answers 400.',
  },
  {
    id: 'media.special.invites',
    section: 'Special routes as the real server has them',
    source: 'field-notes',
    needs: 'twin',
    text: 'The invitee accepts (201 {}) or declines (200 {}) an invite; a group leader revokes it (200 {}); others are forbidden.',
  },
  {
    id: 'media.special.bulk-library-entries',
    section: 'Special routes as the real server has them',
    source: 'field-notes',
    needs: 'twin',
    text: 'PATCH /library-entries/_bulk with filter[id] updates those entries of the signed-in user.',
  },
] as const satisfies readonly Rule[];

export const MEDIA_RULES = defineRules(rules);

export type MediaRuleId = (typeof rules)[number]['id'];
