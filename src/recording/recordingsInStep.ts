/**
 * Whether the recordings the repository ships (recordings/) are in step with
 * today's suites: a fresh recording of the same twins must give the same
 * normalised cassettes, request for request and answer for answer. That is
 * what a replay of the shipped recordings needs (it matches method, path,
 * query, body and significant headers), at a fraction of a replay's cost.
 * Each recording's own stand-ins (the tokens' and the User-Agent in its
 * target.json) are masked first: they differ between record runs by design.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { listCassettes } from './cassette.ts';
import { readRecordedTarget } from '../config/harnessConfig.ts';

export interface InStepReport {
  readonly compared: number;
  /** One line per cassette that is missing, extra or different, naming it and the first difference. */
  readonly differences: string[];
}

/** Stand-in → placeholder pairs of a recording: what its record run was given. */
function standIns(root: string): [string, string][] {
  const problems: string[] = [];
  const target = readRecordedTarget(root, problems);
  if (!target) throw new Error(problems.join('; '));
  const store = target.store.mode === 'live' ? target.store : undefined;
  const media = target.media.mode === 'live' ? target.media : undefined;
  const pairs: [string, string | undefined][] = [
    [`<store token>`, store?.token],
    [`<media token>`, media?.token],
    [`<user agent>`, store?.userAgent],
  ];
  return pairs.filter((pair): pair is [string, string] => typeof pair[1] === 'string' && pair[1] !== '').map(([placeholder, value]) => [value, placeholder]);
}

function readMasked(root: string, file: string, masks: readonly [string, string][]): unknown {
  let text = readFileSync(join(root, file), 'utf8');
  for (const [value, placeholder] of masks) text = text.replaceAll(value, placeholder);
  return JSON.parse(text) as unknown;
}

/** The first line where two pretty-printed values differ, as `shipped … | fresh …`. */
function firstDifference(shipped: unknown, fresh: unknown): string {
  const a = JSON.stringify(shipped, null, 1).split('\n');
  const b = JSON.stringify(fresh, null, 1).split('\n');
  const line = a.findIndex((text, n) => text !== b[n]);
  const at = line === -1 ? a.length : line;
  return `shipped ${(a[at] ?? '(end)').trim()} | fresh ${(b[at] ?? '(end)').trim()}`;
}

export function recordingsInStep(shippedRoot: string, freshRoot: string): InStepReport {
  const shippedMasks = standIns(shippedRoot);
  const freshMasks = standIns(freshRoot);
  const shipped = listCassettes(shippedRoot, 'normalised');
  const fresh = new Set(listCassettes(freshRoot, 'normalised'));
  const differences: string[] = [];
  let compared = 0;
  for (const file of shipped) {
    if (!fresh.delete(file)) {
      differences.push(`${file}: shipped, but no test recorded it now (a test was renamed or removed)`);
      continue;
    }
    compared += 1;
    const a = readMasked(shippedRoot, file, shippedMasks);
    const b = readMasked(freshRoot, file, freshMasks);
    if (!isDeepStrictEqual(a, b)) differences.push(`${file}: ${firstDifference(a, b)}`);
  }
  for (const file of fresh) differences.push(`${file}: recorded now, but not shipped (a new test)`);
  return { compared, differences };
}
