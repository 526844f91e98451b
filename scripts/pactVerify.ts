/**
 * `npm run pact:verify [store|media]`: Pact's Verifier, by hand, on the committed
 * pact files (contracts/pacts/) against the target: by default the twins (a
 * `npm run mock` already running is reused, otherwise they are started), or the
 * live services with HARNESS_TARGET=live. The pacts are not rewritten first.
 */
import { runTool } from './lib/runTool.ts';
import { announceTarget } from './lib/announceTarget.ts';

const SPECS = { store: 'contracts/store/verify.pact.spec.ts', media: 'contracts/media/verify.pact.spec.ts' } as const;

async function main(args: string[]): Promise<number> {
  const unknown = args.filter((a) => !(a in SPECS));
  if (unknown.length > 0) {
    console.error(`pact:verify: unknown API ${unknown.map((a) => JSON.stringify(a)).join(', ')}. Usage: npm run pact:verify [-- store|media]`);
    return 2;
  }
  const apis = (args.length > 0 ? args : Object.keys(SPECS)) as (keyof typeof SPECS)[];
  const config = announceTarget(`pact:verify: the ${apis.join(' and ')} pacts in contracts/pacts/, with Pact's Verifier,`);
  if (!config) return 2;
  return runTool('playwright', ['test', '--project=contracts-verify', '--no-deps', ...apis.map((api) => SPECS[api])], {
    HARNESS_RUN_NAME: `pact-verify-${config.target}`,
  });
}

process.exit(await main(process.argv.slice(2)));
