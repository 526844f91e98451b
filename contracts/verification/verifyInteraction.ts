/**
 * Verifies one pact interaction against a provider with Pact's own Verifier
 * (its core, through verifierFront.ts): the state is arranged first (here, so a
 * state that cannot be arranged is a skip with its reason, not a verifier
 * error), its values answer the Verifier's state calls for the pact's
 * provider-state expressions, and a request filter adds the credentials, so
 * they never reach a pact or a report. On a live target the same filter charges
 * each request to the run's budget.
 */
import { stripVTControlCharacters } from 'node:util';
import type { ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { answerExcerpt, parsedBody, summariseMismatches, verifierMismatches } from './mismatchSummary.ts';
import { whoActs } from './whoActs.ts';
import { getGlobalDispatcher, type Dispatcher } from 'undici';
import { verifyThroughFront, type FrontRequest } from './verifierFront.ts';
import { isWriteMethod, WRITE_FLAGS, type LiveApi, type LiveBudgetSpentError, type LiveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { singleInteractionPact, type PactDocument, type PactInteraction } from './pactFile.ts';
import { arrangeSession, isUnavailable, type VerifierAnswer, type Arranged, type Arrangement, type ArrangeSession, type PactProvider } from './pactProvider.ts';
import { resolveStates } from './stateVocabulary.ts';
import { setProcessVariable } from '../../src/config/env.ts';
import { CONTRACT_ROUTES } from '../../src/schemas/contractRoutes.ts';
import { refusalInFieldNotesShape } from '../../src/schemas/fieldNotesShapes.ts';

export type VerificationOutcome = ({ readonly status: 'verified'; readonly report: string } | { readonly status: 'skipped'; readonly reason: string }) & {
  /** Said once on the interaction's line: where the request went, when not to the path the pact writes (PactProvider.sendsTo). */
  readonly note?: string;
};

/**
 * A failed verification. Its message is the short account (mismatchSummary.ts: each mismatch once, what the
 * pact expects and what the provider answered, who acts); `report` is Pact's own report, attached whole.
 */
export class PactMismatchError extends Error {
  readonly report: string;

  constructor(interaction: Pick<PactInteraction, 'description'>, target: string, report: string, account: readonly string[] = []) {
    super(
      account.length > 0
        ? `The pact interaction "${interaction.description}" does not hold against the ${target}:\n${account.join('\n')}`
        : `The pact interaction "${interaction.description}" does not hold against the ${target}. Pact's Verifier reported:\n${report}`,
    );
    this.name = 'PactMismatchError';
    this.report = report;
  }
}

/** What the provider answered the Verifier's request, kept by the request filter for the account of a failure. */
interface Answered {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  chunks: Buffer[];
}

/** The short account of a failure: the mismatches, generalised; the pact's expectation and the answer, in short; who acts. */
function accountOf(
  api: 'store' | 'media',
  target: PactProvider,
  interaction: PactInteraction,
  verifierJson: string,
  answered: Answered | undefined,
  arrangement: Arrangement | undefined,
): string[] {
  const mismatches = verifierMismatches(verifierJson);
  if (mismatches.length === 0) return [];
  const text = answered ? decoded(answered) : '';
  const body = parsedBody(text);
  const expected = interaction.response.body?.content;
  return [
    ...summariseMismatches(mismatches, body).map((line) => `  ${line}`),
    `The pact expects: ${interaction.response.status}${expected === undefined ? '' : `, ${answerExcerpt(expected, 300)}`}`,
    answered
      ? `The provider answered: ${answered.method} ${answered.path} → ${answered.status}, ${answerExcerpt(body, 300)}`
      : 'The provider answered nothing the Verifier could read.',
    whoActs(
      api,
      target.kind,
      mismatches,
      answered ? { method: answered.method, path: answered.path, status: answered.status, body } : undefined,
      arrangement ? { ...arrangement, expectedStatus: interaction.response.status } : undefined,
    ),
  ];
}

/** The answer's text, unzipped when the provider compressed it. */
function decoded(answered: Answered): string {
  const raw = Buffer.concat(answered.chunks);
  const encoding = String(answered.headers['content-encoding'] ?? '');
  try {
    if (encoding.includes('gzip')) return gunzipSync(raw).toString('utf8');
    if (encoding.includes('br')) return brotliDecompressSync(raw).toString('utf8');
    if (encoding.includes('deflate')) return inflateSync(raw).toString('utf8');
  } catch {
    return '';
  }
  return raw.toString('utf8');
}

// Pact's Verifier adds the pacts of any broker PACT_BROKER_BASE_URL names to the one-interaction pact it is given
// (and then fails on a broker that has none). The harness fetches from and publishes to a broker itself
// (contracts/broker/), so a broker configured for pact:publish or pact:verify --broker must not reach the Verifier.
for (const name of ['PACT_BROKER_BASE_URL', 'PACT_BROKER_TOKEN', 'PACT_BROKER_USERNAME', 'PACT_BROKER_PASSWORD']) setProcessVariable(name, '');

/** The worker's guard and the API whose budget the Verifier's requests are charged to. */
type Budget = { readonly guard: LiveRequestGuard; readonly api: LiveApi };

export async function verifyInteraction(options: {
  pact: PactDocument;
  interaction: PactInteraction;
  target: PactProvider;
  /** Live and record targets: the worker's guard, which counts the Verifier's requests as `api`'s and refuses them once the budget is spent. */
  budget?: Budget;
  /** Which API the pact is for, for the account of a failure (its contract schemas); store unless said. */
  api?: 'store' | 'media';
  /** What the Verifier's requests are sent on (a live run's carries its outage watch); the process's own unless said. */
  dispatcher?: Dispatcher;
}): Promise<VerificationOutcome> {
  const { pact, interaction, target, budget } = options;
  // Before anything is sent: a state the vocabulary does not know fails here, naming the known ones and the closest.
  const states = resolveStates(target.vocabulary, target.name, interaction);
  const refusedWrite = writeRefusal(interaction, budget);
  if (refusedWrite) return { status: 'skipped', reason: refusedWrite };
  const arranged: Arranged[] = [];
  const session = arrangeSession(interaction);
  try {
    const unavailable = await arrangeStates(target, states, session, arranged);
    if (unavailable) return { status: 'skipped', reason: unavailable };
    const values = Object.assign({}, ...arranged.map((a) => a.values ?? {})) as Record<string, string | number | boolean>;
    const headers = Object.assign({}, target.headers ?? {}, ...arranged.map((a) => a.headers ?? {})) as Record<string, string>;
    // The pacer hears the answer as the front passes it on, not once the Verifier is done comparing it.
    const requestAnswered = once(await target.beforeRequest?.());
    // The Verifier sends a User-Agent of its own unless the pact names one; a pact that names none means "without".
    const withoutUserAgent = !Object.keys(interaction.request.headers ?? {}).some((name) => name.toLowerCase() === 'user-agent');
    const filter = credentialFilter(headers, withoutUserAgent, budget, target.sendsTo, requestAnswered);
    const arrangement = target.arrangement?.(session, values);
    const note = sentToNote(target, interaction);

    const verdict = await runVerifier(
      {
        pact,
        interaction,
        target,
        values,
        filter,
        dispatcher: options.dispatcher ?? getGlobalDispatcher(),
        api: options.api ?? 'store',
        arrangement,
      },
      requestAnswered,
    );
    return { ...verdict, ...(note ? { note } : {}) };
  } finally {
    for (const state of arranged.reverse()) await state.teardown?.();
  }
}

/**
 * Where the interaction's request went, when not to the path the pact writes (PactProvider.sendsTo): said once on
 * its line. A path a generator makes is the arranged store's already; only a literal one is sent elsewhere.
 */
export function sentToNote(target: PactProvider, interaction: PactInteraction): string | undefined {
  const literal = arrangeSession(interaction).literalPath;
  return literal === undefined ? undefined : target.sendsTo?.(literal)?.note;
}

/**
 * Pact's Verifier on the one-interaction pact; gives its report. A budget refusal wins over the mismatch it
 * caused; a 404 for a record the pact's path names literally is not verified (the store lacks what no state
 * arranged: nobody's contract is at stake); `requestAnswered` is called however it ends.
 */
async function runVerifier(
  run: {
    pact: PactDocument;
    interaction: PactInteraction;
    target: PactProvider;
    values: Record<string, string | number | boolean>;
    filter: ReturnType<typeof credentialFilter>;
    dispatcher: Dispatcher;
    api: 'store' | 'media';
    arrangement: Arrangement | undefined;
  },
  requestAnswered: () => void,
): Promise<VerificationOutcome> {
  const { pact, interaction, target, filter } = run;
  let output: string[];
  try {
    const json = await verifyThroughFront(pact.provider.name, JSON.stringify(singleInteractionPact(pact, interaction)), {
      base: target.baseUrl.replace(/\/+$/, ''),
      dispatcher: run.dispatcher,
      // Two calls to the front and back for each state, only where the pact reads a value from them.
      values: readsStateValues(interaction) ? run.values : undefined,
      filter: filter.requestFilter,
    });
    output = verifierOutput(json);
  } catch (error) {
    filter.throwIfRefused();
    const json = error instanceof Error ? error.message : String(error);
    const report = verifierOutput(json);
    const answered = filter.answered();
    const missing = missingRecord(target, interaction, answered, run.arrangement) ?? limitRefusal(run.api, target, answered);
    if (missing) return { status: 'skipped', reason: missing };
    throw new PactMismatchError(
      interaction,
      target.name,
      report.join('\n') || String(error),
      accountOf(run.api, target, interaction, json, answered, run.arrangement),
    );
  } finally {
    requestAnswered();
  }
  filter.throwIfRefused();
  return { status: 'verified', report: output.join('\n') };
}

/** On a real provider, the answer is a write refused at a sandbox limit, in the shape the field notes quote: not verified. */
function limitRefusal(api: 'store' | 'media', target: PactProvider, answered: Answered | undefined): string | undefined {
  const shapes = CONTRACT_ROUTES[api].fieldNotesShapes;
  if (target.kind !== 'live' || !answered || !shapes) return undefined;
  return refusalInFieldNotesShape(shapes, [
    { request: { method: answered.method, url: `http://provider${answered.path}` }, response: { status: answered.status, body: decoded(answered) } },
  ]);
}

/**
 * A 404 for a path whose record ids the pact writes literally, where the pact expects the record: the arranged store
 * lacks it (a team's sandbox id, no state naming it), so the interaction is not verified, naming the ids and the fix.
 */
function missingRecord(target: PactProvider, interaction: PactInteraction, answered: Answered | undefined, arrangement: Arrangement | undefined) {
  if (answered?.status !== 404 || interaction.response.status === 404 || !arrangement?.literalRecords.length) return undefined;
  return (
    `the ${target.name} answered 404 for ${answered.method} ${answered.path}: ${arrangement.arranged} holds no ${arrangement.literalRecords.join(' or ')}, which the pact's path names literally. ` +
    `Fix: name the record in the interaction's state (e.g. "store {storeId} has product {productId}" with its id), have the path read the id with fromProviderState, or arrange it in your states file (--states)`
  );
}

/**
 * Live and record: why an interaction that writes is skipped without the API's write flag, before any state is
 * arranged. (The request filter refuses it anyway, should one slip through.)
 */
function writeRefusal(interaction: PactInteraction, budget: Budget | undefined): string | undefined {
  if (!budget || !isWriteMethod(interaction.request.method) || budget.guard.writes[budget.api]) return undefined;
  return `the interaction sends ${interaction.request.method.toUpperCase()} ${interaction.request.path}, which can write to the live ${budget.api} API: set ${WRITE_FLAGS[budget.api]}=1 to verify it (on a sandbox; what it creates is deleted)`;
}

/**
 * Arranges the states in order, pushing each onto `arranged` as it is made (so the caller tears down whatever
 * was made, whatever happens next). Gives the skip reason of the first state the target cannot provide.
 */
async function arrangeStates(
  target: PactProvider,
  states: ReturnType<typeof resolveStates>,
  session: ArrangeSession,
  arranged: Arranged[],
): Promise<string | undefined> {
  if (states.length === 0 && target.withoutState) {
    const result = await target.withoutState(session);
    if (result && isUnavailable(result)) return result.skip;
    if (result) arranged.push(result);
  }
  for (const state of states) {
    const arrange = target.states[state.entry.name];
    if (!arrange) {
      throw new Error(
        `No way to arrange the provider state "${state.entry.name}" on the ${target.name}. Fix: add it to the state table of this API (contracts/<api>/providerStates.ts).`,
      );
    }
    const result = await arrange(state.params, session);
    if (isUnavailable(result)) return `state "${state.entry.name}": ${result.skip}`;
    arranged.push(result);
  }
  return undefined;
}

/**
 * The Verifier's request filter: adds the credentials (and drops its User-Agent when the pact names none) and
 * charges each request to the budget. A request the budget refuses is answered 503 here; the first refusal is
 * kept, and throwIfRefused() makes it the test's error instead of Pact's mismatch.
 */
function credentialFilter(
  headers: Record<string, string>,
  withoutUserAgent: boolean,
  budget: Budget | undefined,
  sendsTo: PactProvider['sendsTo'],
  onAnswer: (answer: VerifierAnswer) => void,
): { requestFilter: (req: FrontRequest, res: ServerResponse, next: () => void) => void; throwIfRefused(): void; answered(): Answered | undefined } {
  let refused: LiveBudgetSpentError | undefined;
  let answered: Answered | undefined;
  const requestFilter = (req: FrontRequest, res: ServerResponse, next: () => void) => {
    const [path = '', query] = req.url.split(/\?(.*)/s);
    const mapped = sendsTo?.(path);
    if (mapped) req.url = query === undefined ? mapped.path : `${mapped.path}?${query}`;
    answered = keepAnswer(req, res, onAnswer);
    try {
      budget?.guard.take(budget.api, `${req.method} ${req.url.split('?')[0]} (Pact's Verifier)`);
    } catch (error) {
      // Answered here, so the request never reaches the provider; the test fails with this error, not Pact's mismatch.
      refused ??= error as LiveBudgetSpentError;
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end(refused.message);
      return;
    }
    for (const [name, value] of Object.entries(headers)) req.headers[name.toLowerCase()] = value;
    if (withoutUserAgent) delete req.headers['user-agent'];
    next();
  };
  return {
    requestFilter,
    throwIfRefused() {
      if (refused) throw refused;
    },
    answered: () => answered,
  };
}

/** Whether the interaction has a provider-state expression (fromProviderState: a generator of type ProviderState). */
function readsStateValues(interaction: PactInteraction): boolean {
  const raw = interaction.raw as { request?: { generators?: unknown }; response?: { generators?: unknown } } | undefined;
  const hasStateGenerator = (node: unknown): boolean =>
    typeof node === 'object' && node !== null && ((node as { type?: unknown }).type === 'ProviderState' || Object.values(node).some(hasStateGenerator));
  return hasStateGenerator(raw?.request?.generators) || hasStateGenerator(raw?.response?.generators);
}

/** `release`, called once: with the answer when one passed the front, else bare once the Verifier is done. */
function once(release: ((answer?: VerifierAnswer) => void) | void): (answer?: VerifierAnswer) => void {
  let done = !release;
  return (answer) => {
    if (done) return;
    done = true;
    release!(answer);
  };
}

/** The provider's answer as it passes back through the front: its status, headers and first 256 KiB. */
function keepAnswer(req: FrontRequest, res: ServerResponse, onAnswer: (answer: VerifierAnswer) => void): Answered {
  const answer: Answered = { method: req.method, path: req.url.split('?')[0]!, status: 0, headers: {}, chunks: [] };
  let kept = 0;
  const keep = (chunk: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function' || kept > 256 * 1024) return;
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    kept += bytes.length;
    answer.chunks.push(bytes);
  };
  const { write, end } = res;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') keep(chunk);
    answer.status = res.statusCode;
    answer.headers = res.getHeaders() as Answered['headers'];
    onAnswer(answer);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
  return answer;
}

/** The report lines of the Verifier's JSON answer (its `output`), without colour codes; the raw text when it is not that JSON. */
export function verifierOutput(json: string): string[] {
  try {
    const parsed = JSON.parse(json) as { output?: string[] };
    return stripVTControlCharacters((parsed.output ?? []).join('\n')).split('\n');
  } catch {
    return stripVTControlCharacters(json).split('\n');
  }
}
