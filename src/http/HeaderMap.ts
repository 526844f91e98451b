/** Headers with case-insensitive names; a later set replaces an earlier one of any case. */
export class HeaderMap {
  readonly #entries = new Map<string, { name: string; value: string }>();

  set(name: string, value: string): void {
    this.#entries.set(name.toLowerCase(), { name, value });
  }

  delete(name: string): void {
    this.#entries.delete(name.toLowerCase());
  }

  toRecord(): Record<string, string> {
    return Object.fromEntries([...this.#entries.values()].map(({ name, value }) => [name, value]));
  }
}
