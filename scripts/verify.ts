/**
 * `npm run verify`: the main job. Every suite against the selected target
 * (HARNESS_TARGET, default mock: the twins, started by the Playwright config),
 * then the Allure report. The harness's own unit tests are `npm test`'s business.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { describeConfig, harnessConfig } from '../src/config/harnessConfig.ts';
import { ConfigError } from '../src/config/ConfigError.ts';

/** The suites of every API, by Playwright project. */
const API_PROJECTS = ['store'];

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, PACT_DO_NOT_TRACK: 'true' } });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

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
  const tests = await run('node_modules/.bin/playwright', ['test', ...API_PROJECTS.map((p) => `--project=${p}`), ...process.argv.slice(2)]);
  console.log('verify: building the Allure report');
  const report = await run('node_modules/.bin/allure', [
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
