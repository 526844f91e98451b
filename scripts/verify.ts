/**
 * `npm run verify`: the main job. Every suite against the selected target
 * (HARNESS_TARGET, default mock: the twins, started by the Playwright config),
 * then the Allure report. The harness's own unit tests are `npm test`'s business.
 */
import { runTool } from './lib/runTool.ts';
import { rmSync } from 'node:fs';
import { announceTarget } from './lib/announceTarget.ts';
import { buildReport } from './lib/buildReport.ts';

/** The suites of every API, the properties and the pacts (contracts-verify pulls in the consumer pacts), by Playwright project. */
const API_PROJECTS = ['store', 'media', 'storefront', 'properties', 'contracts-verify'];

async function main(): Promise<number> {
  const config = announceTarget('verify: checking every contract, pact and suite');
  if (!config) return 2;
  for (const dir of ['reports/allure-results', 'reports/junit']) rmSync(dir, { recursive: true, force: true });
  const tests = await runTool('playwright', ['test', ...API_PROJECTS.map((p) => `--project=${p}`), ...process.argv.slice(2)]);
  console.log('verify: building the Allure report');
  const report = await buildReport(`API contract harness (${config.target})`);
  console.log('verify: rule coverage in reports/rule-coverage.md');
  return tests !== 0 ? tests : report;
}

process.exit(await main());
