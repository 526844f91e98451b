/**
 * Pact files, read as their consumer's tool wrote them (Pact specification 1.x to 4.x: pact-js, pact-jvm,
 * pact-python, pact-go and the older versions of each), and cut into one-interaction pacts so each
 * interaction is verified, reported and skipped on its own. What the harness reads of an interaction is
 * one shape whatever the version (its states, its request and expected response, or the message it
 * expects); the one-interaction copy the Verifier reads is the interaction exactly as written, in a file of
 * the same version, so Pact's own reader applies each version's rules (V2's `$.body…` matchers, V3's by
 * category, V4's typed interactions).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PACT_DIR } from '../pactNames.ts';

export interface PactNames {
  readonly consumer: string;
  readonly provider: string;
  readonly dir: string;
  /** The file, when it is not named `<consumer>-<provider>.json` (a pact from outside the harness). */
  readonly path?: string;
}

export interface PactProviderState {
  readonly name: string;
  readonly params?: Record<string, unknown>;
}

export interface PactBody {
  readonly content?: unknown;
  readonly contentType?: string;
  /** V4 keeps JSON as JSON (false); other encodings hold the body as a string. */
  readonly encoded?: unknown;
}

/** An HTTP interaction: a request, and the response the consumer expects. */
export interface PactInteraction {
  readonly description: string;
  /** `Synchronous/HTTP` (V4's name; the HTTP interactions of V1 to V3 get it too). */
  readonly type: string;
  readonly providerStates?: readonly PactProviderState[];
  readonly request: { readonly method: string; readonly path: string; readonly headers?: Record<string, unknown> };
  /** The body as V4 holds it (`content`), whichever version wrote it. */
  readonly response: { readonly status: number; readonly headers?: Record<string, unknown>; readonly body?: PactBody };
  /** Where it is in its file: 0 for the first entry (interactions, then a V3 file's messages). */
  readonly index?: number;
  /** The interaction as written, for the one-interaction pact the Verifier reads. */
  readonly raw?: Record<string, unknown>;
}

/** A message interaction: what the provider sends (a V4 `Asynchronous/Messages`, a V3 message pact's `messages`, or another V4 kind). */
export interface PactMessage {
  readonly description: string;
  /** `Asynchronous/Messages`; `Synchronous/Messages` and plugin kinds are listed, and reported as not verified. */
  readonly type: string;
  readonly providerStates?: readonly PactProviderState[];
  /** The message the consumer expects, as V4 holds it (`content`). */
  readonly contents?: PactBody;
  readonly metadata?: Record<string, unknown>;
  readonly index: number;
  readonly raw: Record<string, unknown>;
}

export interface PactDocument {
  readonly consumer: { readonly name: string };
  readonly provider: { readonly name: string };
  /** The HTTP interactions. */
  readonly interactions: readonly PactInteraction[];
  /** The message interactions (none in a file of HTTP interactions only). */
  readonly messages: readonly PactMessage[];
  readonly metadata: { readonly pactSpecification?: { readonly version?: string } };
  /** The Pact specification's major version the file is written in: 1 to 4. */
  readonly specification: number;
  /** How many interactions the file holds, of every kind. */
  readonly count: number;
  /** The file as written, for the one-interaction copies. */
  readonly raw: Record<string, unknown>;
}

/** Whose pact it is: the harness's own (written by its consumer tests, always V4) or a team's (any version Pact's verifier reads). */
export type PactOrigin = 'own' | 'team';

/** Where Pact writes the pact between these two: `<dir>/<consumer>-<provider>.json`. */
export function pactPath(names: PactNames): string {
  return names.path ? resolve(names.path) : resolve(names.dir, `${names.consumer}-${names.provider}.json`);
}

/** Reads and checks a pact file: it must exist and be a pact with interactions. A file named by `path` is a team's pact. */
export function readPact(names: PactNames): PactDocument {
  const path = pactPath(names);
  const origin: PactOrigin = names.path ? 'team' : 'own';
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new Error(
      origin === 'own'
        ? `No pact at ${path}. Fix: write it with the consumer tests: npx playwright test --project=contracts-consumer.`
        : `No pact at ${path}: it was moved or deleted while it was verified.`,
    );
  }
  return parsePact(JSON.parse(text), path, origin);
}

/** A pact's interactions' descriptions in the file's order, HTTP and message. */
export function descriptions(pact: PactDocument): string[] {
  return [...pact.interactions, ...pact.messages].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((i) => i.description);
}

/** The version a pact says it is written in, as each tool has written it (metadata.pactSpecification.version, the older keys). */
export function specificationVersion(metadata: unknown): string | undefined {
  const m = (typeof metadata === 'object' && metadata !== null ? metadata : {}) as Record<string, unknown>;
  const nested = (key: string) => (m[key] as { version?: unknown } | undefined)?.version;
  const version = nested('pactSpecification') ?? nested('pact-specification') ?? m['pactSpecificationVersion'];
  return typeof version === 'string' ? version : undefined;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks that `value` is a pact: of a specification version Pact's verifier reads (a team's: 1.x to 4.x; the
 * harness's own: 4.x, as its consumer tests write), with interactions, each with a description, and an HTTP one
 * with a request method and path and a response status. `source` names it in the error (a path, or "the pact").
 */
export function parsePact(value: unknown, source = 'the pact', origin: PactOrigin = 'own'): PactDocument {
  if (!isObject(value)) {
    throw new Error(
      origin === 'own'
        ? `${source} is not a JSON object. Pass the parsed contents of a ${PACT_DIR}/*.json file.`
        : `${source} is not a JSON object, so not a pact. Give the file your consumer tests wrote.`,
    );
  }
  const version = specificationVersion(value['metadata']);
  const major = Number(/^v?(\d+)\./i.exec(version ?? '')?.[1] ?? NaN);
  if (origin === 'own' && major !== 4) {
    throw new Error(
      `${source} is not a V4 pact (metadata.pactSpecification.version is ${JSON.stringify(version)}). ` +
        'Write it with PactV4 and SpecificationVersion.SPECIFICATION_VERSION_V4.',
    );
  }
  if (!(major >= 1 && major <= 4)) {
    throw new Error(
      `${source} says it is written in Pact specification ${JSON.stringify(version)} (metadata.pactSpecification.version); ` +
        "Pact's verifier reads versions 1.x to 4.x. Write the file with your Pact library, not by hand.",
    );
  }
  // A V3 message pact holds `messages` where the others hold `interactions`.
  const entries = [...(Array.isArray(value['interactions']) ? value['interactions'] : []), ...(Array.isArray(value['messages']) ? value['messages'] : [])];
  const messagesFrom = Array.isArray(value['interactions']) ? value['interactions'].length : 0;
  if (entries.length === 0) {
    throw new Error(
      origin === 'own'
        ? `${source} has no interactions. The consumer tests write them: run the contracts-consumer project first (it writes ${PACT_DIR}/).`
        : `${source} has no interactions: nothing to verify. Run your consumer tests first: they write the pact, one interaction per test.`,
    );
  }
  const fix =
    origin === 'own'
      ? 'Regenerate the pact from the consumer tests rather than editing it.'
      : 'Write the pact again with your consumer tests rather than editing it.';
  const interactions: PactInteraction[] = [];
  const messages: PactMessage[] = [];
  entries.forEach((entry: unknown, index) => {
    const raw = (isObject(entry) ? entry : {}) as Json;
    if (typeof raw['description'] !== 'string') throw new Error(`interaction #${index} of ${source} has no description. ${fix}`);
    const description = raw['description'];
    const providerStates = statesOf(raw);
    // V4 names each interaction's kind; before V4 a file's `messages` are messages and its `interactions` HTTP.
    const type = typeof raw['type'] === 'string' ? raw['type'] : index >= messagesFrom ? 'Asynchronous/Messages' : 'Synchronous/HTTP';
    if (type !== 'Synchronous/HTTP') {
      messages.push({ description, type, providerStates, contents: bodyOf(raw['contents'], major), ...metadataOf(raw), index, raw });
      return;
    }
    const request = raw['request'] as Json | undefined;
    const response = raw['response'] as Json | undefined;
    const problem =
      typeof request?.['method'] !== 'string' || typeof request['path'] !== 'string'
        ? 'no request method and path'
        : typeof response?.['status'] !== 'number'
          ? 'no response status'
          : undefined;
    if (problem) throw new Error(`interaction #${index} of ${source} has ${problem}. ${fix}`);
    const body = major === 4 ? (response!['body'] as PactBody | undefined) : bodyOf(response!['body'], major);
    interactions.push({
      ...(raw as unknown as PactInteraction),
      description,
      type,
      providerStates,
      response: { ...(response as unknown as PactInteraction['response']), ...(body === undefined ? {} : { body }) },
      index,
      raw,
    });
  });
  return {
    consumer: value['consumer'] as PactDocument['consumer'],
    provider: value['provider'] as PactDocument['provider'],
    interactions,
    messages,
    metadata: value['metadata'] as PactDocument['metadata'],
    specification: major,
    count: entries.length,
    raw: value,
  };
}

/** The states an interaction names: V3 and V4's `providerStates`, V2 and V1.1's `providerState`, V1's `provider_state`. */
function statesOf(raw: Json): PactProviderState[] {
  if (Array.isArray(raw['providerStates'])) return raw['providerStates'] as PactProviderState[];
  const one = raw['providerState'] ?? raw['provider_state'];
  return typeof one === 'string' && one.trim() !== '' ? [{ name: one }] : [];
}

/** A body as V4 holds it: V4 writes `{ content, contentType, encoded }`, V1 to V3 the body itself. */
function bodyOf(body: unknown, major: number): PactBody | undefined {
  if (body === undefined) return undefined;
  if (major === 4 && isObject(body) && 'content' in body) return body as PactBody;
  return { content: body };
}

/** A message's metadata: `metadata`, or V3's `metaData` as its specification spells it. */
function metadataOf(raw: Json): { metadata?: Record<string, unknown> } {
  const metadata = raw['metadata'] ?? raw['metaData'];
  return isObject(metadata) ? { metadata } : {};
}

/** A copy of the pact holding only `interaction`, as written and in the file's own version. */
export function singleInteractionPact(pact: PactDocument, interaction: PactInteraction | PactMessage): Record<string, unknown> {
  const { interactions: _interactions, messages: _messages, ...rest } = pact.raw;
  // A V3 message goes back under `messages`, where Pact's V3 reader looks for it.
  const key = pact.specification === 3 && interaction.type !== 'Synchronous/HTTP' ? 'messages' : 'interactions';
  return { ...rest, [key]: [interaction.raw ?? interaction] };
}

/** Writes singleInteractionPact to `path`; answers the path. */
export function writeSingleInteractionPact(pact: PactDocument, interaction: PactInteraction | PactMessage, path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(singleInteractionPact(pact, interaction), null, 2));
  return path;
}
