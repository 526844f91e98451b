/**
 * Playwright's globalSetup (playwright.config.ts): every run starts from no pact
 * files in its own output folder (reports/pacts/<run>, the examples' inside it),
 * so an interaction removed from the code also leaves the pact (Pact merges into
 * an existing file otherwise). It runs in the runner before any worker starts:
 * as a project it cost a worker start of its own.
 */
import { rmSync } from 'node:fs';
import { PACT_OUTPUT_DIR } from './pactNames.ts';

export default function clearPactOutput(): void {
  rmSync(PACT_OUTPUT_DIR, { recursive: true, force: true });
}
