/**
 * What the documentation says a twin answers to one request, and the check
 * of an answer against it plus the rules every answer keeps: an answer
 * within the deadline, never 5xx, the documented content type, a JSON body,
 * and error bodies in the documented shape (the repo's JSON Schemas).
 */
import { formatIssues, validate } from '../../src/schemas/validate.ts';
import type { Exchange, RawAnswer } from './exchange.ts';
import { previewBytes } from './rawRequest.ts';

export interface Expectation {
  /** The documented rule that decides this answer, with where it is written down. */
  readonly rule: string;
  /** The statuses it allows. */
  readonly statuses: readonly number[];
  /** Content-Type of every answer but a 204. */
  readonly contentType: string;
  /** The schema id (src/schemas) a 4xx body must match, by status. */
  readonly errorSchema: (status: number) => string;
  /** The body as the schema is to read it, where a schema is known to misread a documented body (default: as sent). */
  readonly schemaView?: (body: unknown) => unknown;
  /** Headers every answer of the API carries, whatever its status (lower case). */
  readonly requiredHeaders?: readonly string[];
  /** A further documented detail of the answer (an Allow header, a description); a problem, or undefined. */
  readonly check?: (answer: RawAnswer) => string | undefined;
}

export interface Violation {
  /** Which rule broke, in words. */
  readonly rule: string;
  readonly detail: string;
}

/** The answer's JSON body, or undefined when it has none (HEAD) or it is not JSON (the JSON rule reports that). */
export function jsonBodyOf(answer: RawAnswer): unknown {
  try {
    return answer.body.length === 0 ? undefined : JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function bodyPreview(answer: RawAnswer): string {
  return answer.body.length === 0 ? 'no body' : `body ${previewBytes(answer.body, 300)}`;
}

/** The first rule the exchange breaks, or undefined. `method` is the request's (HEAD answers carry no body). */
export function checkAnswer(outcome: Exchange, expected: Expectation, method: string): Violation | undefined {
  if (outcome.kind === 'no-answer') return { rule: 'the twin answers every request within the deadline', detail: outcome.reason };
  const { answer } = outcome;
  if (answer.status >= 500) {
    return { rule: `never 5xx: the twin answered ${answer.status} (a crash or an unhandled case)`, detail: bodyPreview(answer) };
  }
  if (!expected.statuses.includes(answer.status)) {
    return { rule: expected.rule, detail: `expected ${expected.statuses.join(' or ')}, got ${answer.status}: ${bodyPreview(answer)}` };
  }
  const missing = (expected.requiredHeaders ?? []).filter((name) => !answer.headers.has(name));
  if (missing.length > 0) return { rule: `every answer carries ${missing.join(', ')}`, detail: `the ${answer.status} answer has none` };
  if (answer.status === 204) return expected.check ? violationOf(expected, answer) : undefined;
  const contentType = answer.headers.get('content-type');
  if (contentType !== expected.contentType) {
    return { rule: `the documented content type ${expected.contentType}`, detail: `got Content-Type ${contentType ?? '(none)'}` };
  }
  if (method !== 'HEAD') {
    let body: unknown;
    try {
      body = JSON.parse(answer.body.toString('utf8'));
    } catch {
      return { rule: 'a JSON body', detail: bodyPreview(answer) };
    }
    if (answer.status >= 400) {
      const schema = expected.errorSchema(answer.status);
      const result = validate(schema, expected.schemaView ? expected.schemaView(body) : body);
      if (!result.valid)
        return { rule: `a ${answer.status} body in the documented shape (${schema})`, detail: `${formatIssues(result.errors)}\n${bodyPreview(answer)}` };
    }
  }
  return violationOf(expected, answer);
}

function violationOf(expected: Expectation, answer: RawAnswer): Violation | undefined {
  const problem = expected.check?.(answer);
  return problem === undefined ? undefined : { rule: expected.rule, detail: problem };
}
