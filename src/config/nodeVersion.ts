/**
 * The Node the harness needs, checked before anything that needs it is loaded: the bin
 * (scripts/bin.ts) and the package's entry points (src/twins/entry.ts, contracts/verification/statesEntry.ts)
 * load this module alone first. On an older Node the harness's dependencies fail in ways that name
 * nothing (undici dies on a missing `bind`; `import.meta.main` is undefined before 22.18, so a bin
 * guarded by it printed nothing and exited 0). This module imports nothing and uses no newer syntax,
 * so any Node that reads ES modules can run it and say what to do.
 */

/** package.json's `engines.node` (undici 8's floor); a unit test holds the two together. */
export const NEEDED_NODE = '22.19.0';

/** The fix, as a team's project or CI applies it. */
const FIX =
  'Pin it in your project (npm install --save-dev node@24; npx then runs the pinned Node), or give CI a newer one (actions/setup-node with node-version: 24).';

function parts(version: string): number[] {
  return version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
}

/** Whether `version` (e.g. process.versions.node, "20.20.2") is older than NEEDED_NODE. */
export function olderThanNeeded(version: string): boolean {
  const found = parts(version);
  const needed = parts(NEEDED_NODE);
  for (let i = 0; i < needed.length; i++) {
    const a = found[i] ?? 0;
    const b = needed[i]!;
    if (a !== b) return a < b;
  }
  return false;
}

/** The one line a team reads: what ran, which Node it found (and where), which it needs, and the fix. */
export function oldNodeMessage(what: string, version: string, execPath: string): string {
  return `${what} needs Node ${NEEDED_NODE} or newer; this is Node ${version.replace(/^v/, '')} (${execPath}). ${FIX}`;
}

/** The message for this process's Node, or undefined when it is new enough. */
export function nodeVersionProblem(what: string, version: string = process.versions.node, execPath: string = process.execPath): string | undefined {
  return olderThanNeeded(version) ? oldNodeMessage(what, version, execPath) : undefined;
}

/** Thrown by the package's entry points on an older Node, with the same words as the bin. */
export class UnsupportedNodeError extends Error {
  override readonly name = 'UnsupportedNodeError';
}

/** Throws UnsupportedNodeError on an older Node. */
export function assertSupportedNode(what: string): void {
  const problem = nodeVersionProblem(what);
  if (problem) throw new UnsupportedNodeError(problem);
}
