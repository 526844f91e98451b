/** What every client's low-level `send` takes; each client adds its body and credential options. */
export interface ClientRequest {
  method: string;
  /** Relative to baseUrl (keeping the base's own path); may include a query. */
  path?: string;
  /** Absolute, e.g. a link to the next page. Only the base URL's origin receives the token. */
  url?: string;
  query?: Record<string, string | number | undefined>;
  /** Sent as is (for malformed-body checks). */
  rawBody?: string;
  /** Extra headers; they override the defaults of the same name. */
  headers?: Record<string, string>;
  /** Overrides the Content-Type of a body; null omits it. */
  contentType?: string | null;
  /** Retry 5xx, 429 and network failures. Default true. */
  retry?: boolean;
}
