/**
 * One fuzz case on the wire: send, check the answer against the oracle's
 * expectation, then ask the twin's health endpoint whether the process still
 * answers. Any broken rule is thrown as a FuzzFailure naming the request.
 */
import { checkAnswer, type Expectation, type Violation } from './expectation.ts';
import { exchange, type Exchange } from './exchange.ts';
import { describeRequest, type RawRequest } from './rawRequest.ts';

export interface FuzzTarget {
  /** `store twin`, `media twin`: who speaks in a failure. */
  readonly name: string;
  /** `http://host:port` of the twin. */
  readonly url: string;
  /** How long an answer may take. */
  readonly deadlineMs: number;
}

export class FuzzFailure extends Error {
  readonly violation: Violation;

  constructor(target: FuzzTarget, violation: Violation, request: RawRequest, outcome: Exchange) {
    const answered = outcome.kind === 'answer' ? `${outcome.answer.status} after ${Math.round(outcome.answer.elapsedMs)} ms` : `nothing (${outcome.reason})`;
    super(
      [
        `[${target.name} fuzzer] broken rule: ${violation.rule}`,
        `  ${violation.detail.replaceAll('\n', '\n  ')}`,
        'Request:',
        `  ${describeRequest(request).replaceAll('\n', '\n  ')}`,
        `Answered: ${answered}`,
      ].join('\n'),
    );
    this.name = 'FuzzFailure';
    this.violation = violation;
  }
}

const HEALTH_PATH = '/__twin/health';

/**
 * Sends `request`, lets the twin's bookkeeping see the answer (`after`: it
 * runs before any failure is thrown, so shrinking starts from a tidy twin),
 * then checks the answer and the twin's health.
 */
export async function sendChecked(target: FuzzTarget, request: RawRequest, expected: Expectation, after: (outcome: Exchange) => Promise<void>): Promise<void> {
  const outcome = await exchange(target.url, request, target.deadlineMs);
  await after(outcome);
  const violation = checkAnswer(outcome, expected, request.method);
  if (violation) throw new FuzzFailure(target, violation, request, outcome);
  const health: RawRequest = { method: 'GET', target: HEALTH_PATH, headers: [['Host', 'fuzz.test']], framing: 'length' };
  const alive = await exchange(target.url, health, target.deadlineMs);
  if (alive.kind !== 'answer' || alive.answer.status !== 200) {
    const seen = alive.kind === 'answer' ? `GET ${HEALTH_PATH} answered ${alive.answer.status}` : `GET ${HEALTH_PATH}: ${alive.reason}`;
    throw new FuzzFailure(target, { rule: 'the process keeps answering after every case', detail: seen }, request, outcome);
  }
}
