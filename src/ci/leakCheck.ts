/**
 * Before CI uploads reports as artifacts: no file under the given directories
 * may hold the live tokens of the environment (STORE_ACCESS_TOKEN,
 * KITSU_ACCESS_TOKEN, and each team's app token in STORE_TEAM_SANDBOXES).
 * Names the files, never the token.
 *
 *   node src/ci/leakCheck.ts reports     exit 1 when a file holds a token
 */
import { leakScan } from '../recording/leakScan.ts';
import { processEnv } from '../config/env.ts';

const TOKEN_VARIABLES = ['STORE_ACCESS_TOKEN', 'KITSU_ACCESS_TOKEN'] as const;

/** The files under dirs that hold one of the environment's tokens (tokens shorter than 4 characters are not looked for). */
export function leakedFiles(dirs: readonly string[], env: Readonly<Record<string, string | undefined>> = processEnv()): string[] {
  const tokens = [...TOKEN_VARIABLES.map((name) => env[name]?.trim() ?? ''), ...teamTokens(env['STORE_TEAM_SANDBOXES'])].filter((token) => token.length >= 4);
  return leakScan(dirs, tokens);
}

/** Each team's app token in STORE_TEAM_SANDBOXES (`{consumer: {storeId, token}}`); none when it does not parse (a run refuses it). */
function teamTokens(json: string | undefined): string[] {
  if (!json?.trim()) return [];
  try {
    const entries = Object.values(JSON.parse(json) as Record<string, { token?: unknown }>);
    return entries.flatMap((entry) => (typeof entry?.token === 'string' ? [entry.token.trim()] : []));
  } catch {
    return [];
  }
}

if (import.meta.main) {
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : ['reports'];
  const leaks = leakedFiles(dirs);
  if (leaks.length > 0) {
    console.error(`leak check: a live token is written in ${leaks.join(', ')}; nothing is uploaded. Secrets must be redacted before anything is written.`);
    process.exit(1);
  }
  console.log(`leak check: no file under ${dirs.join(', ')} holds a live token`);
}
