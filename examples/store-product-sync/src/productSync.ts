/**
 * A store product sync, written as an integration team would: plain `fetch`,
 * no harness client. It reads every product of a store page by page, following
 * the `Link` header's rel="next" (absolute or relative, resolved against the
 * page it came from), and keeps what the team's catalogue needs.
 */
export interface SyncOptions {
  /** e.g. https://api.tiendanube.com */
  readonly baseUrl: string;
  readonly storeId: number | string;
  readonly token: string;
  /** The API refuses requests without one: name the app and a contact. */
  readonly userAgent: string;
  readonly perPage?: number;
}

export interface SyncedProduct {
  readonly id: number;
  readonly name: string;
  /** The first variant's price, as the API writes it ("19.90"). */
  readonly price: string | null;
}

interface ApiProduct {
  id: number;
  name: Record<string, string>;
  variants?: { price?: string | null }[];
}

/** The URL of rel="next" in a Link header, resolved against `from`; undefined on the last page. */
export function nextLink(header: string | null, from: string): string | undefined {
  for (const part of (header ?? '').split(',')) {
    // RFC 8288: whitespace around ';' and '=', rel quoted or not, other parameters before it.
    const match = /<([^>]+)>\s*;(?:[^,]*;)?\s*rel\s*=\s*"?next"?/i.exec(part);
    if (match) return new URL(match[1]!, from).href;
  }
  return undefined;
}

export async function syncProducts(options: SyncOptions): Promise<SyncedProduct[]> {
  const products: SyncedProduct[] = [];
  let url: string | undefined = `${options.baseUrl}/v1/${options.storeId}/products?per_page=${options.perPage ?? 30}`;
  while (url) {
    const response = await fetch(url, { headers: { Authentication: `bearer ${options.token}`, 'User-Agent': options.userAgent } });
    if (!response.ok) throw new Error(`product sync: GET ${url} answered ${response.status}`);
    for (const product of (await response.json()) as ApiProduct[]) {
      products.push({ id: product.id, name: Object.values(product.name)[0] ?? '', price: product.variants?.[0]?.price ?? null });
    }
    url = nextLink(response.headers.get('link'), url);
  }
  return products;
}
