import { STORE_CONTRACT, type LinkRel } from '../../rules/storeContract.ts';
import type { Links } from './types.ts';

const KNOWN_RELS: ReadonlySet<string> = new Set(STORE_CONTRACT.linkRels);

/**
 * The first, prev, next and last targets of a Link header
 * (store.pagination.link-full-urls), e.g.
 * `<https://…/products?page=3>; rel="next", <https://…/products?page=50>; rel="last"`.
 *
 * Lenient on purpose: the suites check the exact published form; the client
 * only needs the targets. Unquoted and multi-valued rels (`rel="next last"`) are
 * read, unknown rels ignored, the first entry of a rel wins. Targets are
 * returned as sent; following them is the caller's business.
 */
export function parseLinkHeader(header: string | undefined): Links {
  const links: Links = {};
  if (!header) return links;
  for (const entry of splitEntries(header)) {
    const match = /^\s*<([^>]*)>(.*)$/s.exec(entry);
    if (!match) continue;
    const target = match[1]!.trim();
    for (const rel of relsOf(match[2]!)) {
      if (KNOWN_RELS.has(rel) && links[rel as LinkRel] === undefined) links[rel as LinkRel] = target;
    }
  }
  return links;
}

/** Splits on commas outside <…> and quotes: URLs and quoted params may contain commas. */
function splitEntries(header: string): string[] {
  const entries: string[] = [];
  let current = '';
  let inTarget = false;
  let inQuotes = false;
  for (const char of header) {
    if (char === '<' && !inQuotes) inTarget = true;
    else if (char === '>' && !inQuotes) inTarget = false;
    else if (char === '"' && !inTarget) inQuotes = !inQuotes;
    if (char === ',' && !inTarget && !inQuotes) {
      entries.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  entries.push(current);
  return entries;
}

function relsOf(params: string): string[] {
  const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
  const value = rel?.[1] ?? rel?.[2] ?? '';
  return value.toLowerCase().split(/\s+/).filter(Boolean);
}
