/** `npm run report`: the Allure report of the last runs (see scripts/lib/buildReport.ts). */
import { buildReport } from './lib/buildReport.ts';

process.exit(await buildReport(process.argv[2]));
