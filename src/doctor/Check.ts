/**
 * One line of the doctor's checklist: which API, what was checked, how it went
 * and, for a problem, the fix. A problem means a live run could not succeed
 * as configured; a note is worth knowing but stops nothing; skipped is a check
 * that could not be made because an earlier one failed.
 */
export type CheckStatus = 'ok' | 'problem' | 'note' | 'skipped';

/** Which part of the setup a check is about: one API, or the run as a whole. */
export type CheckScope = 'store' | 'media' | 'run';

export interface Check {
  readonly scope: CheckScope;
  /** Short name of what was checked: `host`, `token`, `allow-list`, ... */
  readonly name: string;
  readonly status: CheckStatus;
  /** What was found, in a sentence; never a secret. */
  readonly detail: string;
  /** For a problem (or a note worth acting on): what to change. */
  readonly fix?: string;
}

export function ok(scope: CheckScope, name: string, detail: string): Check {
  return { scope, name, status: 'ok', detail };
}

/** `fix` may be left out only when `detail` already says what to change (the configuration's messages do). */
export function problem(scope: CheckScope, name: string, detail: string, fix?: string): Check {
  return { scope, name, status: 'problem', detail, ...(fix ? { fix } : {}) };
}

export function note(scope: CheckScope, name: string, detail: string, fix?: string): Check {
  return { scope, name, status: 'note', detail, ...(fix ? { fix } : {}) };
}

export function skipped(scope: CheckScope, name: string, detail: string): Check {
  return { scope, name, status: 'skipped', detail };
}
