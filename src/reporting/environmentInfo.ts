/**
 * The Allure report's Environment: which target was checked, where, with which
 * versions, from which commit. Never a secret: tokens are not read here, and
 * any credentials inside a URL are dropped.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnvInfo } from 'allure-js-commons/sdk/reporter';
import type { HarnessConfig } from '../config/harnessConfig.ts';

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
    return (JSON.parse(readFileSync(resolve(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

/** The commit under test: CI's variable when set, else git's, else unknown. */
export function commitOf(env: NodeJS.ProcessEnv = process.env): string {
  const fromCi = env.GITHUB_SHA?.trim() || env.CI_COMMIT_SHA?.trim();
  if (fromCi) return fromCi.slice(0, 12);
  const git = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return git.status === 0 ? git.stdout.trim() : 'unknown';
}

export function environmentInfo(config: HarnessConfig, runName: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const store = config.store.mode === 'twin' ? `${config.store.twinUrl} (twin)` : `${withoutCredentials(config.store.apiUrl)}/v1/${config.store.storeId}`;
  const media = config.media.mode === 'twin' ? `${config.media.apiUrl} (twin)` : withoutCredentials(config.media.apiUrl);
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

/**
 * This run's environment joined with what earlier runs into the same results
 * wrote (npm test runs the twins, a recording and two replays into one report):
 * each key lists every value seen, in order.
 */
export function mergedEnvironment(info: Record<string, string>, resultsDir: string): Record<string, string> {
  let previous: Record<string, string | undefined>;
  try {
    previous = parseEnvInfo(readFileSync(join(resultsDir, 'environment.properties'), 'utf8'));
  } catch {
    return info;
  }
  const merged: Record<string, string> = {};
  for (const key of new Set([...Object.keys(previous), ...Object.keys(info)])) {
    const values = [...(previous[key] ?? '').split(', '), ...(info[key] ?? '').split(', ')].filter(Boolean);
    merged[key] = [...new Set(values)].join(', ');
  }
  return merged;
}
