/**
 * The Allure report's Environment: which target was checked, where, with which
 * versions, from which commit. Never a secret: tokens are not read here, and
 * any credentials inside a URL are dropped.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnvInfo, stringifyEnvInfo } from 'allure-js-commons/sdk/reporter';
import type { HarnessConfig } from '../config/harnessConfig.ts';
import { processEnv, reportPath } from '../config/env.ts';
import { dependencyVersion } from '../config/harnessRoot.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const VERSIONED = ['@playwright/test', '@pact-foundation/pact', 'allure-playwright', 'undici', 'nock', 'fast-check', 'ajv'];

/** A URL without user name or password. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return '(not a URL)';
  }
}

function versionOf(pkg: string): string {
  try {
    return dependencyVersion(pkg);
  } catch {
    return 'not installed';
  }
}

/** The commit under test: CI's variable when set, else git's, else unknown. */
export function commitOf(env: NodeJS.ProcessEnv = processEnv()): string {
  const fromCi = env.GITHUB_SHA?.trim() || env.CI_COMMIT_SHA?.trim();
  if (fromCi) return fromCi.slice(0, 12);
  const git = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return git.status === 0 ? git.stdout.trim() : 'unknown';
}

export function environmentInfo(config: HarnessConfig, runName: string, env: NodeJS.ProcessEnv = processEnv()): Record<string, string> {
  const store =
    config.store.mode === 'off'
      ? '(not configured)'
      : config.store.mode === 'twin'
        ? `${config.store.twinUrl} (twin)`
        : `${withoutCredentials(config.store.apiUrl)}/v1/${config.store.storeId}`;
  const media =
    config.media.mode === 'off' ? '(not configured)' : config.media.mode === 'twin' ? `${config.media.apiUrl} (twin)` : withoutCredentials(config.media.apiUrl);
  return {
    target: config.target,
    run: runName,
    'store API': store,
    'media API': media,
    commit: commitOf(env),
    node: process.version,
    ...Object.fromEntries(VERSIONED.map((pkg) => [pkg, versionOf(pkg)])),
  };
}

/** Joins environments key by key: each key lists every value seen, in order. */
function joinEnvironments(environments: readonly Record<string, string | undefined>[]): Record<string, string> {
  const joined: Record<string, string> = {};
  for (const key of new Set(environments.flatMap((e) => Object.keys(e)))) {
    joined[key] = [...new Set(environments.flatMap((e) => (e[key] ?? '').split(', ')).filter(Boolean))].join(', ');
  }
  return joined;
}

/**
 * This run's environment joined with what earlier runs into the same results
 * wrote (npm run verify after npm test, say): each key lists every value seen.
 */
export function mergedEnvironment(info: Record<string, string>, resultsDir: string): Record<string, string> {
  try {
    return joinEnvironments([parseEnvInfo(readFileSync(join(resultsDir, 'environment.properties'), 'utf8')), info]);
  } catch {
    return info;
  }
}

/** Where each run leaves its environment, for runs that finish at the same time (npm test runs several at once). */
export const ENVIRONMENT_SNAPSHOTS = reportPath('environment');

export function saveEnvironmentSnapshot(info: Record<string, string>, runName: string, dir: string = ENVIRONMENT_SNAPSHOTS): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${runName}.json`), `${JSON.stringify(info, null, 2)}\n`);
}

/**
 * Writes the results' environment.properties from every run's snapshot, in
 * the order the runs are named: runs that ran side by side each wrote only
 * their own, and the last to finish would otherwise be all the report shows.
 */
export function writeJoinedEnvironment(resultsDir: string, runNames: readonly string[], dir: string = ENVIRONMENT_SNAPSHOTS): void {
  const snapshots = runNames.flatMap((name) => {
    try {
      return [JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as Record<string, string>];
    } catch {
      return [];
    }
  });
  if (snapshots.length === 0) return;
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'environment.properties'), stringifyEnvInfo(joinEnvironments(snapshots)));
}
