/**
 * The Allure 3 report (`npm run report`): tests grouped by API, area of the
 * spec and rule; categories that say whose fault a red test is; history kept
 * in one file between runs (CI restores and saves it), so trends show.
 */
import { defineConfig } from 'allure';
import { reportCategories } from './src/reporting/categories.ts';
import { allureHistoryPath } from './src/config/env.ts';

export default defineConfig({
  name: 'API contract harness',
  output: 'reports/allure-report',
  historyPath: allureHistoryPath(),
  historyLimit: 60,
  categories: { rules: reportCategories() },
  plugins: {
    awesome: {
      options: {
        reportName: 'API contract harness',
        reportLanguage: 'en',
        groupBy: ['epic', 'feature', 'story'],
        layout: 'split',
      },
    },
  },
});
