/**
 * `npm run pact:verify [store|media]`: Pact's Verifier, by hand, on the committed
 * pact files (contracts/pacts/) against the target: by default the twins (a
 * `npm run mock` already running is reused, otherwise they are started), or the
 * live services with HARNESS_TARGET=live. The pacts are not rewritten first.
 */
import { runTool } from './lib/runTool.ts';
import { describeConfig, harnessConfig } from '../src/config/harnessConfig.ts';
import { ConfigError } from '../src/config/ConfigError.ts';

const SPECS = { store: 'contracts/store/verify.pact.spec.ts', media: 'contracts/media/verify.pact.spec.ts' } as const;

async function main(args: string[]): Promise<number> {
  const unknown = args.filter((a) => !(a in SPECS));
  if (unknown.length > 0) {
    console.error(`pact:verify: unknown API ${unknown.map((a) => JSON.stringify(a)).join(', ')}. Usage: npm run pact:verify [-- store|media]`);
    return 2;
  }
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
  const apis = (args.length > 0 ? args : Object.keys(SPECS)) as (keyof typeof SPECS)[];
  console.log(`pact:verify: the ${apis.join(' and ')} pacts in contracts/pacts/, with Pact's Verifier, against`);
  for (const [key, value] of Object.entries(describeConfig(config))) console.log(`  ${key}: ${value}`);
  return runTool('playwright', ['test', '--project=contracts-verify', '--no-deps', ...apis.map((api) => SPECS[api])], {
    HARNESS_RUN_NAME: `pact-verify-${config.target}`,
  });
}

process.exit(await main(process.argv.slice(2)));
