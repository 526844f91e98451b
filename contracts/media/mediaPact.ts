/** Who the media pacts are between, and where they are written. */
export const MEDIA_PACT = { consumer: 'media-integration', provider: 'media-tracking-api', dir: 'contracts/pacts' } as const;
