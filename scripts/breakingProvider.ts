/**
 * `npm run breaks:provider -- store:<break>`: one break of `npm run breaks`
 * kept up by hand, for a live run a person watches (the report's picture,
 * docs/reports.md). Starts the twins on BREAKS_FIRST_PORT and the next port,
 * puts the breaking proxy (src/testing/providerBreaks/) in front of the store
 * twin on the port after, writes the variables a live run needs to
 * reports/breaking-provider.env, and keeps running until Ctrl-C:
 *
 *   npm run breaks:provider -- store:rate-remaining-always-full &
 *   . reports/breaking-provider.env && npm run verify -- --api store
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { startProviderBehindBreaks } from './lib/twinProcess.ts';
import { STORE_BREAKS } from '../src/testing/providerBreaks/storeBreaks.ts';
import { breaksFirstPort, reportPath } from '../src/config/env.ts';

const ENV_FILE = reportPath('breaking-provider.env');
const [wanted = ''] = process.argv.slice(2);
const name = wanted.replace(/^store:/, '');
const change = STORE_BREAKS[name];
if (!change) {
  console.error(`breakingProvider: name a store break (store:<name>), one of: ${Object.keys(STORE_BREAKS).join(', ')}`);
  process.exit(2);
}

const storePort = breaksFirstPort();
const provider = await startProviderBehindBreaks({
  storePort,
  mediaPort: storePort + 1,
  store: change,
  storeProxyPort: storePort + 2,
  userAgent: 'api-contract-harness breaking provider (https://example.invalid/api-contract-harness)',
});
const env = { HARNESS_TARGET: 'live', ...provider.env };
mkdirSync(dirname(ENV_FILE), { recursive: true });
writeFileSync(
  ENV_FILE,
  Object.entries(env)
    .map(([key, value]) => `export ${key}='${value}'\n`)
    .join(''),
);
console.log(`breakingProvider: store:${name} (${change.breaks}) at ${provider.storeUrl}; . ${ENV_FILE} before a live run; Ctrl-C stops it`);

async function stop(): Promise<void> {
  await provider.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
