/**
 * The one warning a dependency prints on every run that the project cannot fix:
 * http-proxy, inside pact-js's Verifier (a message pact's verification), calls
 * util._extend (DEP0060, deprecated since Node 22) for each verified interaction. It is silenced by its code
 * alone, for this process's children (Playwright's workers inherit it), so any
 * other warning still prints.
 */
const SILENCED_DEPRECATIONS = ['DEP0060'] as const;

export function silenceDependencyDeprecations(): void {
  const options = process.env.NODE_OPTIONS ?? '';
  const flags = SILENCED_DEPRECATIONS.map((code) => `--disable-warning=${code}`).filter((flag) => !options.split(/\s+/).includes(flag));
  if (flags.length > 0) process.env.NODE_OPTIONS = [options, ...flags].filter(Boolean).join(' ');
}
