/**
 * `npm run verify`: the main job. Every suite against the selected target
 * (HARNESS_TARGET, default mock: the twins, started by the Playwright config),
 * then the Allure report. The harness's own unit tests are `npm test`'s business.
 */
import { runTool } from './lib/runTool.ts';
import { rmSync } from 'node:fs';
import { describeConfig, harnessConfig } from '../src/config/harnessConfig.ts';
import { ConfigError } from '../src/config/ConfigError.ts';

/** The suites of every API and the pacts (contracts-verify pulls in the consumer pacts), by Playwright project. */
const API_PROJECTS = ['store', 'media', 'contracts-verify'];

async function main(): Promise<number> {
  let config;
  try {
    config = harnessConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  console.log('verify: checking the contracts against');
  for (const [key, value] of Object.entries(describeConfig(config))) console.log(`  ${key}: ${value}`);
  rmSync('reports/allure-results', { recursive: true, force: true });
  const tests = await runTool('playwright', ['test', ...API_PROJECTS.map((p) => `--project=${p}`), ...process.argv.slice(2)]);
  console.log('verify: building the Allure report');
  const report = await runTool('allure', [
    'generate',
    'reports/allure-results',
    '--output',
    'reports/allure-report',
    '--report-name',
    `API contract harness (${config.target})`,
  ]);
  console.log('verify: report in reports/allure-report (npm run report:open), rule coverage in reports/rule-coverage.md');
  return tests !== 0 ? tests : report;
}

process.exit(await main());
