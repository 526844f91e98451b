/**
 * The numbers and formats of the Media Tracking API, stated once. The spec
 * says "not shown" for limits, so these come from the field notes
 * (../shared/specs/media-tracking-api.field-notes.md): the twin serves them and
 * live runs treat them as observations.
 */
export const MEDIA_CONTRACT = {
  /** JSON:API media type of every response and of writes. */
  mediaType: 'application/vnd.api+json',
  /** Every route carries /api/edge; {base_url} already ends with it. */
  edgePrefix: '/api/edge',
  /** Offset paginator: default page[limit], the usual maximum, and the larger maxima. */
  defaultLimit: 10,
  maxLimit: 20,
  maxLimitByCollection: { 'library-entries': 500 } as Readonly<Record<string, number>>,
  /** Collections whose index is not paginated at all (small lookups). */
  unpaginatedCollections: ['categories', 'streamers', 'profile-link-sites', 'roles'] as readonly string[],
  /** Top-level keys of a collection document, in the real server's order. */
  documentKeyOrder: ['data', 'included', 'meta', 'links'] as const,
  /** OAuth 2 (Doorkeeper) endpoints, relative to the host: {origin}/api/oauth/... */
  oauthTokenPath: '/api/oauth/token',
  oauthRevokePath: '/api/oauth/revoke',
  /** Tokens last 30 days. */
  tokenLifetimeSeconds: 30 * 24 * 3600,
  /** ageRating of adult-flagged media. */
  adultAgeRating: 'R18',
} as const;
