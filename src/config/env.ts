/**
 * The process environment is read here and in the rest of src/config, nowhere
 * else (`npm run lint` holds every other file to it; tests/unit/lint shows it).
 * loadConfig (harnessConfig.ts) validates what a run is pointed at; the readers
 * below name the other variables the harness and its commands read, each with
 * what it means. A module that takes an `env` record (so a test can pass its own)
 * defaults it to `processEnv()`; a child process inherits `processEnv()`.
 */

export type Env = Readonly<Record<string, string | undefined>>;

/** The whole environment: for an `env` parameter's default and for what a child process inherits. */
export function processEnv(): NodeJS.ProcessEnv {
  return process.env;
}

/** Sets a variable for this process and every child it starts (the one place the harness writes the environment). */
export function setProcessVariable(name: string, value: string): void {
  process.env[name] = value;
}

/** Sets variables for a while: answers what puts each back as it was (unset where it was unset). */
export function setProcessVariablesFor(values: Readonly<Record<string, string>>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/**
 * Whether Node's own TLS in this process reads OpenSSL's root variables (SSL_CERT_FILE, SSL_CERT_DIR): with
 * --use-openssl-ca, or --use-system-ca (NODE_USE_SYSTEM_CA=1), which on Linux reads the system's store through them.
 */
export function nodeReadsOpenSslRoots(): boolean {
  const options = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)];
  return options.some((o) => o === '--use-openssl-ca' || o === '--use-system-ca') || process.env['NODE_USE_SYSTEM_CA'] === '1';
}

const trimmed = (env: Env, name: string): string | undefined => env[name]?.trim() || undefined;

/** A comma-separated variable as its trimmed, non-empty items; `fallback` when unset. */
const listOf = (env: Env, name: string, fallback = ''): string[] =>
  (env[name] ?? fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** CI: set by CI systems; the gate and the runner are stricter there (forbidOnly, committed pacts). */
export const onCI = (env: Env = processEnv()): boolean => !!trimmed(env, 'CI');

/** HARNESS_TARGET as given (loadConfig validates it): twin, live, record or replay. */
export const targetName = (env: Env = processEnv()): string => trimmed(env, 'HARNESS_TARGET') ?? 'twin';

/**
 * HARNESS_REPORTS_DIR: where a run writes everything it leaves behind (results, JUnit, Allure results, plans,
 * test output); `reports` in the working folder unless set. The packaged command line points it at the
 * team's folder (./reports/api-contract-harness, or --out), so nothing is written inside node_modules.
 */
export const reportsDir = (env: Env = processEnv()): string => trimmed(env, 'HARNESS_REPORTS_DIR') ?? 'reports';

/** A path inside reportsDir(). */
export const reportPath = (...parts: string[]): string => [reportsDir(), ...parts].join('/');

/** RECORDINGS_DIR: where record runs write their cassettes and replays read them; `recordings` (the shipped ones) unless set. */
export const recordingsDir = (env: Env = processEnv()): string => trimmed(env, 'RECORDINGS_DIR') ?? 'recordings';

/** HARNESS_RUN_NAME: which of npm test's runs this is (its reports and pacts are kept apart); the target when unset. */
export const runName = (env: Env = processEnv()): string | undefined => trimmed(env, 'HARNESS_RUN_NAME');

/** HARNESS_RULE_GATE: the APIs whose every rule must have a test in this run (the twins' run of npm test). */
export const ruleGateApis = (env: Env = processEnv()): string[] => listOf(env, 'HARNESS_RULE_GATE');

/**
 * HARNESS_TWIN_ONLY: the APIs (store, media) whose suite runs only its twin-only tests in this run:
 * npm test's twins' run, whose live-capable tests the recording runs against twin processes instead
 * (scripts/gate.ts joins those verdicts into the twins' coverage and holds them to the twins' choices).
 */
export const twinOnlyApis = (env: Env = processEnv()): string[] => listOf(env, 'HARNESS_TWIN_ONLY');

/**
 * HARNESS_PACTS=committed: verify the pact files as committed (contracts/pacts) without the consumer tests
 * writing them first. For a run beside one that writes them (npm test's recording, whose twins' run
 * regenerates the pacts and fails on a difference from the committed ones) or that only needs the provider side.
 */
export const committedPactsOnly = (env: Env = processEnv()): boolean => trimmed(env, 'HARNESS_PACTS') === 'committed';

/** HARNESS_BLOB_REPORT=1: a shard of a CI matrix writes a blob report for the merge job. */
export const blobReport = (env: Env = processEnv()): boolean => env.HARNESS_BLOB_REPORT === '1';

/**
 * HARNESS_RUN_ID: one id per Playwright run, set by the config in the main process and inherited by the workers, so
 * what a run keeps in its output folder (a schema breach's first test) is never read by another run.
 */
export const RUN_ID_VARIABLE = 'HARNESS_RUN_ID';
export const runId = (env: Env = processEnv()): string => trimmed(env, RUN_ID_VARIABLE) ?? 'run';

/** TEST_WORKER_INDEX: set by Playwright in its workers; the config skips what only the main process needs. */
export const inPlaywrightWorker = (env: Env = processEnv()): boolean => env.TEST_WORKER_INDEX !== undefined;

/** PLAYWRIGHT_TEST_BASE_URL: Playwright's own default for `baseURL`. */
export const playwrightBaseUrl = (env: Env = processEnv()): string | undefined => trimmed(env, 'PLAYWRIGHT_TEST_BASE_URL');

/** KITSU_TWIN_CLOCK: the media twin's clock, real (default) or virtual; anything else is an error of the caller's. */
export const mediaTwinClock = (env: Env = processEnv()): string => env.KITSU_TWIN_CLOCK ?? '';

/** STORE_TWIN_PLAN: the plan of npm run twins's seeded stores, standard (default) or plus (a bucket 10 times larger and faster). */
export const storeTwinPlan = (env: Env = processEnv()): string => env.STORE_TWIN_PLAN ?? '';

/** ALLURE_HISTORY_PATH: where the Allure report keeps its history from run to run. */
export const allureHistoryPath = (env: Env = processEnv()): string => env.ALLURE_HISTORY_PATH ?? reportPath('history', 'history.jsonl');

/** GATE_LIVE_PORT: the first port of the gate's twin processes for its live path (4110 unless set). */
export const gateLivePort = (env: Env = processEnv()): number => Number(env.GATE_LIVE_PORT ?? 4110);

/** A variable by name, for the few readers whose variable is itself a parameter (a ledger file, a bench knob). */
export const variable = (name: string, env: Env = processEnv()): string | undefined => env[name];

/** Set to 1 by the checks .ci/run makes after the gate: the harness's self-tests that take minutes run then, not in it. */
export const SLOW_CHECKS_VARIABLE = 'HARNESS_SLOW_CHECKS';

/** HARNESS_VERIFY_APIS: the APIs `npm run verify -- --api` chose (both unless set); set by scripts/verify.ts for its run. */
export const verifiedApis = (env: Env = processEnv()): string[] => listOf(env, 'HARNESS_VERIFY_APIS', 'store,media');

/** HARNESS_VERIFY_RULES: the rule ids or prefixes `npm run verify -- --rule` chose. */
export const verifiedRules = (env: Env = processEnv()): string[] => (env.HARNESS_VERIFY_RULES ?? '').split(',').filter(Boolean);

/** HARNESS_CONSOLE=verify: npm run verify's console (a line per area, a table) in place of Playwright's list or dot. */
export const verifyConsole = (env: Env = processEnv()): boolean => env.HARNESS_CONSOLE === 'verify';

/** HARNESS_CONSOLE=pact-verify: a line per interaction and a short account of each failure (the packaged pact-verify). */
export const pactVerifyConsole = (env: Env = processEnv()): boolean => env.HARNESS_CONSOLE === 'pact-verify';

/** HARNESS_CALLER_DIR: the folder the packaged command was run from (paths are shown from there); the working folder unless set. */
export const callerDir = (env: Env = processEnv()): string => trimmed(env, 'HARNESS_CALLER_DIR') ?? process.cwd();

/** BREAKS_PARALLEL: how many jobs `npm run breaks` runs at once (2 unless set). */
export const breaksParallel = (env: Env = processEnv()): number => Number(trimmed(env, 'BREAKS_PARALLEL') ?? 2);

/** BREAKS_FIRST_PORT: the first port of the twin processes and proxies `npm run breaks` starts (4200 unless set). */
export const breaksFirstPort = (env: Env = processEnv()): number => Number(trimmed(env, 'BREAKS_FIRST_PORT') ?? 4200);

/** BREAKS_HELD_OUT: a file of breaks and deviations kept out of the repository, run beside the project's own. */
export const breaksHeldOut = (env: Env = processEnv()): string | undefined => trimmed(env, 'BREAKS_HELD_OUT');

/** Variables that were renamed, by their old name: one name per thing, so the old one is refused, never read. */
const RENAMED_VARIABLES: Readonly<Record<string, string>> = {
  MUTANTS_PARALLEL: 'BREAKS_PARALLEL',
  MUTANTS_FIRST_PORT: 'BREAKS_FIRST_PORT',
  MUTANTS_HELD_OUT: 'BREAKS_HELD_OUT',
  STORE_MOCK_PORT: 'STORE_TWIN_PORT',
  KITSU_MOCK_PORT: 'KITSU_TWIN_PORT',
  KITSU_MOCK_CLOCK: 'KITSU_TWIN_CLOCK',
  STORE_MOCK_PLAN: 'STORE_TWIN_PLAN',
};

/** A problem for each variable set under its old name, naming the new one: loadConfig and `npm run breaks` refuse them (exit 2). */
export function renamedVariableProblems(env: Env = processEnv()): string[] {
  return Object.entries(RENAMED_VARIABLES).flatMap(([oldName, name]) => {
    const value = trimmed(env, oldName);
    return value === undefined ? [] : [`${oldName}=${value}: the variable is now called ${name}; set ${name}=${value} and unset ${oldName}`];
  });
}
