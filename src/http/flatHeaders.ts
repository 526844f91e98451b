/**
 * A response's headers as the clients read them: lower-case names, repeated headers joined with ", ". A module of
 * its own, so the interceptors and the transport both use it without importing each other.
 */
export function flatHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
