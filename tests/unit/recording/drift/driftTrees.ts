/**
 * What the drift tests share: a stored and a fresh copy of a few real
 * cassettes to edit (a test file removes them with
 * `test.afterAll(removeDriftTrees)`), and the findings of a report flattened
 * with their API and test.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCassette, writeCassette, type Cassette, type Interaction } from '../../../../src/recording/cassette.ts';
import type { DriftFinding, DriftReport } from '../../../../src/recording/drift.ts';

// A few real cassettes recorded from the twins (raw, redacted), with their target.json.
const FIXTURES = fileURLToPath(new URL('../fixtures/recordings', import.meta.url));
export const CRUD = 'store/products/store-products-crud-read-update-and-delete-one-product.raw.json';
export const LIST = 'store/conventions/store-versioning-v1-path-the-api-answers-under-v1-store-id.raw.json';
export const LOGS = 'media/routes/media-routes-read-only-get-library-entry-logs-index.raw.json';
export const HIDDEN = 'media/errors/media-errors-hidden-404-a-record-that-does-not-exist.raw.json';

export const PRODUCT = /^\/v1\/\d+\/products\/\d+$/;

const made: string[] = [];

/** Removes every copy driftTrees made: a test file's afterAll. */
export function removeDriftTrees(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A stored and a fresh copy of the fixture recordings. */
export function driftTrees(): { stored: string; fresh: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'drift-test-'));
  made.push(dir);
  cpSync(FIXTURES, join(dir, 'stored'), { recursive: true });
  cpSync(FIXTURES, join(dir, 'fresh'), { recursive: true });
  return { stored: join(dir, 'stored'), fresh: join(dir, 'fresh'), dir };
}

export function edit(root: string, rel: string, change: (c: Cassette) => void): void {
  const cassette = readCassette(join(root, rel));
  change(cassette);
  writeCassette(join(root, rel), cassette);
}

/** The interaction of a cassette with this method and raw path (and status, when several). */
export function interaction(c: Cassette, method: string, path: RegExp, status?: number): Interaction {
  const found = c.interactions.find((i) => i.method === method && path.test(i.path) && (status === undefined || i.status === status));
  if (!found) throw new Error(`no ${method} ${path} in ${c.test}`);
  return found;
}

export function findings(report: DriftReport): (DriftFinding & { test: string; api: string })[] {
  return report.apis.flatMap((a) => a.cassettes.flatMap((c) => c.findings.map((f) => ({ ...f, test: c.test, api: a.api }))));
}
