/** A configuration problem: lists every bad variable with its fix, and nothing secret. */
export class ConfigError extends Error {
  readonly code = 'HARNESS_CONFIG';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Harness configuration is not usable:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}
