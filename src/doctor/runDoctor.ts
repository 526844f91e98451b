/**
 * `npm run doctor`: can a live run succeed with this setup? Loads the
 * configuration (a refusal is exit 2, with every problem and its fix), then
 * checks each configured API in a handful of requests through the typed
 * clients, within LIVE_REQUEST_BUDGET: store one request, media one or two.
 * On the twins or a replay there is nothing live to check.
 */
import { ConfigError } from '../config/ConfigError.ts';
import type { HarnessConfig, Target } from '../config/harnessConfig.ts';
import { checkMedia } from './checkMedia.ts';
import { checkStore } from './checkStore.ts';
import type { Check } from './Check.ts';
import { configProblems } from './configProblems.ts';
import { DoctorHttp } from './DoctorHttp.ts';
import { mediaVariableChecks, storeVariableChecks } from './variableChecks.ts';
import { writesCheck } from './writesCheck.ts';

/** 0: a live run could succeed; 1: it could not; 2: the configuration is refused. */
export type DoctorExitCode = 0 | 1 | 2;

export interface DoctorReport {
  /** undefined when the configuration was refused before the target was known. */
  readonly target: Target | undefined;
  readonly checks: readonly Check[];
  readonly exitCode: DoctorExitCode;
  /** What the doctor sent; undefined when it sent nothing (twins, replay, refused configuration). */
  readonly requests?: { readonly store: number; readonly media: number; readonly budget: number };
  /** Values no line may show (the tokens), for the printer's last redaction. */
  readonly secrets: readonly string[];
  /** For the twins and replays: why there is nothing to check. */
  readonly nothingToCheck?: string;
}

export interface DoctorOptions {
  /** Connect and answer timeout of each request; default 10 s. */
  readonly timeoutMs?: number;
}

export async function runDoctor(load: () => HarnessConfig, options: DoctorOptions = {}): Promise<DoctorReport> {
  let config: HarnessConfig;
  try {
    config = load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { target: undefined, checks: configProblems(error), exitCode: 2, secrets: [] };
  }
  const { target, store, media, liveRequestBudget } = config;
  if (target === 'twin' || target === 'replay' || liveRequestBudget === undefined) {
    const where = target === 'replay' ? 'the recordings (HARNESS_TARGET=replay), which need no network' : 'the in-repo twins (HARNESS_TARGET unset or twin)';
    return { target, checks: [], exitCode: 0, secrets: [], nothingToCheck: `this run would use ${where}: there is nothing live to check` };
  }

  const secrets = [store.mode === 'live' ? store.token : undefined, media.mode === 'live' ? media.token : undefined].filter((s): s is string => !!s);
  const http = new DoctorHttp({ budget: liveRequestBudget, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
  let checks: Check[];
  try {
    // The two APIs side by side: a host that times out holds back only its own lines.
    const [storeChecks, mediaChecks] = await Promise.all([
      store.mode === 'live' ? checkStore(store, http.storeClient(store)) : [],
      media.mode === 'live' ? checkMedia(media, http.mediaClient(media)) : [],
    ]);
    checks = [
      ...storeVariableChecks(store),
      ...storeChecks,
      ...(store.mode === 'live' ? [writesCheck('store', store)] : []),
      ...mediaVariableChecks(media),
      ...mediaChecks,
      ...(media.mode === 'live' ? [writesCheck('media', media)] : []),
    ];
  } finally {
    await http.close();
  }
  const exitCode = checks.some((c) => c.status === 'problem') ? 1 : 0;
  return { target, checks, exitCode, requests: { ...http.sent, budget: liveRequestBudget }, secrets };
}
