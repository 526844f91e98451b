/**
 * Builds the Allure report from reports/allure-results with allurerc.ts
 * (grouping, categories, history). The output folder is emptied first:
 * Allure 3 writes into a plugin subfolder when it finds an old report there,
 * and the old one would then be what opens.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { runTool } from './runTool.ts';
import { reportPath } from '../../src/config/env.ts';

// Where HARNESS_REPORTS_DIR puts the run's reports (reports/ unless set).
export const ALLURE_RESULTS = reportPath('allure-results');
export const ALLURE_REPORT = reportPath('allure-report');

export async function buildReport(reportName?: string): Promise<number> {
  if (!existsSync(ALLURE_RESULTS) || readdirSync(ALLURE_RESULTS).length === 0) {
    console.error(`report: ${ALLURE_RESULTS}/ is empty. Run the tests first (npm test or npm run verify), then npm run report.`);
    return 1;
  }
  rmSync(ALLURE_REPORT, { recursive: true, force: true });
  const code = await runTool('allure', ['generate', ALLURE_RESULTS, '--output', ALLURE_REPORT, ...(reportName ? ['--report-name', reportName] : [])]);
  if (code === 0) console.log(`report: ${ALLURE_REPORT}/index.html (npm run report:open serves it); history in reports/history/`);
  return code;
}
