/**
 * Consumer version selectors: which consumer versions' pacts a broker hands a
 * provider to verify (docs.pact.io "consumer version selectors"), from the
 * command line of `npm run pact:verify -- --broker`.
 */
export interface ConsumerVersionSelector {
  readonly mainBranch?: true;
  readonly branch?: string;
  readonly deployedOrReleased?: true;
  readonly deployed?: true;
  readonly released?: true;
  readonly environment?: string;
  readonly consumer?: string;
}

/** Pact's recommended default: the consumers' main branch, and what is deployed or released anywhere. */
export const DEFAULT_SELECTORS: readonly ConsumerVersionSelector[] = [{ mainBranch: true }, { deployedOrReleased: true }];

export const SELECTOR_USAGE = `Consumer version selectors (with --broker; default: --main-branch --deployed-or-released):
  --main-branch         each consumer's main branch
  --branch <name>       a given branch (a team's pull request)
  --deployed            versions deployed to an environment;  --released  versions released
  --deployed-or-released  either
  --environment <env>   only those deployed/released to <env>
  --consumer <name>     only this consumer's pacts (applies to every selector)`;

/** The selectors named in `args`, and the arguments that are not selectors. */
export function parseSelectors(args: readonly string[]): { selectors: ConsumerVersionSelector[]; leftOver: string[] } {
  const selectors: ConsumerVersionSelector[] = [];
  const leftOver: string[] = [];
  let environment: string | undefined;
  let consumer: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const needsValue = () => {
      if (next === undefined || next.startsWith('--')) throw new SelectorError(`${arg} needs a value.`);
      i += 1;
      return next;
    };
    if (arg === '--main-branch') selectors.push({ mainBranch: true });
    else if (arg === '--branch') selectors.push({ branch: needsValue() });
    else if (arg === '--deployed') selectors.push({ deployed: true });
    else if (arg === '--released') selectors.push({ released: true });
    else if (arg === '--deployed-or-released') selectors.push({ deployedOrReleased: true });
    else if (arg === '--environment') environment = needsValue();
    else if (arg === '--consumer') consumer = needsValue();
    else leftOver.push(arg);
  }
  const deploymentOnly = (s: ConsumerVersionSelector) => s.deployed || s.released || s.deployedOrReleased;
  if (environment && !selectors.some(deploymentOnly))
    throw new SelectorError('--environment narrows --deployed, --released or --deployed-or-released: add one of them.');
  const chosen = selectors.length > 0 || consumer ? (selectors.length > 0 ? selectors : [...DEFAULT_SELECTORS]) : [];
  return {
    selectors: chosen.map((s) => ({ ...s, ...(environment && deploymentOnly(s) ? { environment } : {}), ...(consumer ? { consumer } : {}) })),
    leftOver,
  };
}

export class SelectorError extends Error {
  override name = 'SelectorError';
}
