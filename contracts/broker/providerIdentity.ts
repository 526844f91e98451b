/**
 * Who the harness is in the broker when it publishes verification results:
 * the provider version, its branch, tag and environment. A provider version
 * must name what was verified. On the twins and the recordings that is the
 * harness commit alone (the same commit answers the same way every time); on
 * live it is the harness commit and the real service as it was that night, so
 * a live version is one per night (`<commit>+live.<YYYY-MM-DD>`, UTC): a
 * team's can-i-deploy then answers from the night the deployed version names,
 * never from an older night's result against the same harness commit.
 */
import type { HarnessConfig } from '../../src/config/harnessConfig.ts';

/** Runs git with these arguments: its trimmed stdout, or undefined when git is missing or fails (scripts/pactBroker.ts systemGit). */
export type Git = (args: string[]) => string | undefined;

export type TargetLabel = 'twin' | 'replay' | 'live';

/** What a broker run publishes as: version, branch, tags and environment of the provider stand-in. */
export interface ProviderIdentity {
  readonly version: string;
  readonly branch: string;
  readonly tags: readonly string[];
  /** The environment the version is recorded as deployed to, once its results are published. */
  readonly environment?: string;
  readonly target: TargetLabel;
}

/** The harness commit could not be read: the message names the fix. */
export class ProviderIdentityError extends Error {
  override name = 'ProviderIdentityError';
}

/** How the results name the target: the twins, their replay, or live (recorded or not). */
export function targetLabel(target: HarnessConfig['target']): TargetLabel {
  return target === 'twin' ? 'twin' : target === 'replay' ? 'replay' : 'live';
}

/** The UTC day of `now`: `2026-11-27`. */
export function nightOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The provider version the results are published as: the harness commit (with -dirty when the tree has
 * changes), plus the target, so twin, replay and live results of one commit are different versions; on live,
 * plus the night, so each night's real service is a version of its own.
 */
export function providerVersion(git: Git, target: TargetLabel, now: Date = new Date()): string {
  const head = git(['rev-parse', '--short=12', 'HEAD']);
  const status = head === undefined ? undefined : git(['status', '--porcelain']);
  if (head === undefined || status === undefined) {
    throw new ProviderIdentityError(
      'Cannot tell the harness commit (git rev-parse HEAD failed): publish verification results from a git checkout of the harness.',
    );
  }
  return `${head}${status === '' ? '' : '-dirty'}+${target}${target === 'live' ? `.${nightOf(now)}` : ''}`;
}

/** The flags of `pact:verify --broker` that shape the identity. */
export interface IdentityFlags {
  readonly providerBranch?: string;
  readonly providerEnvironment?: string;
}

/**
 * The whole identity: the branch is --provider-branch, else what `branchOf` says (PACT_BRANCH, else git's);
 * the environment is --provider-environment, else production on live (the real service is production), none
 * on the twins and replay.
 */
export function providerIdentity(
  flags: IdentityFlags,
  branchOf: () => string,
  git: Git,
  target: HarnessConfig['target'],
  now: Date = new Date(),
): ProviderIdentity {
  const label = targetLabel(target);
  const environment = flags.providerEnvironment ?? (label === 'live' ? 'production' : undefined);
  return {
    version: providerVersion(git, label, now),
    branch: flags.providerBranch ?? branchOf(),
    tags: [label],
    target: label,
    ...(environment ? { environment } : {}),
  };
}
