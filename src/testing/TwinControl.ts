/**
 * Client of a twin's control API (/__twin), shared by both twins: how suites
 * arrange state the real services give no handle on. Errors name the twin and
 * the fix.
 */
import { request } from 'undici';

export class TwinControl {
  readonly twinUrl: string;
  /** Who speaks in error messages, e.g. "Store twin". */
  readonly name: string;

  constructor(twinUrl: string, name: string) {
    this.twinUrl = twinUrl.replace(/\/+$/, '');
    this.name = name;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res;
    try {
      res = await request(`${this.twinUrl}/__twin${path}`, {
        method: method as 'GET',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new Error(
        `${this.name} control API at ${this.twinUrl} is not reachable (${(error as Error).message}). Start the twins with \`npm run twins\`, or run the suites through \`npm run verify\`, which starts them.`,
        { cause: error },
      );
    }
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new Error(`${this.name} control API: ${method} ${path} answered ${res.statusCode}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Waits (bounded, 10 s) until the twin answers: `npm run twins` starts the twins one after the other. */
  async ready(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.call('GET', '/health');
        return;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }
}
