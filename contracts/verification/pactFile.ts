/**
 * The committed pact files, read as Pact wrote them (V4), and cut into
 * one-interaction pacts so each interaction is verified, reported and skipped
 * on its own.
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

export interface PactInteraction {
  readonly description: string;
  /** `Synchronous/HTTP` for every interaction the pacts here hold. */
  readonly type: string;
  readonly providerStates?: readonly PactProviderState[];
  readonly request: { readonly method: string; readonly path: string; readonly headers?: Record<string, string[]> };
  readonly response: { readonly status: number; readonly headers?: Record<string, unknown>; readonly body?: PactBody };
}

export interface PactDocument {
  readonly consumer: { readonly name: string };
  readonly provider: { readonly name: string };
  readonly interactions: readonly PactInteraction[];
  readonly metadata: { readonly pactSpecification?: { readonly version?: string } };
}

/** Where Pact writes the pact between these two: `<dir>/<consumer>-<provider>.json`. */
export function pactPath(names: PactNames): string {
  return names.path ? resolve(names.path) : resolve(names.dir, `${names.consumer}-${names.provider}.json`);
}

/** Reads and checks a pact file: it must exist and be a V4 pact with interactions. */
export function readPact(names: PactNames): PactDocument {
  const path = pactPath(names);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`No pact at ${path}. Fix: write it with the consumer tests: npx playwright test --project=contracts-consumer.`);
  }
  return parsePact(JSON.parse(text), path);
}

/**
 * Checks that `value` is what Pact writes: a V4 pact whose interactions each
 * have a description, a request method and path and a response status.
 * `source` names it in the error (a path, or "the pact").
 */
export function parsePact(value: unknown, source = 'the pact'): PactDocument {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${source} is not a JSON object. Pass the parsed contents of a ${PACT_DIR}/*.json file.`);
  }
  const pact = value as { metadata?: { pactSpecification?: { version?: unknown } }; interactions?: unknown };
  const version = pact.metadata?.pactSpecification?.version;
  if (typeof version !== 'string' || !version.startsWith('4.')) {
    throw new Error(
      `${source} is not a V4 pact (metadata.pactSpecification.version is ${JSON.stringify(version)}). ` +
        'Write it with PactV4 and SpecificationVersion.SPECIFICATION_VERSION_V4.',
    );
  }
  if (!Array.isArray(pact.interactions) || pact.interactions.length === 0) {
    throw new Error(`${source} has no interactions. The consumer tests write them: run the contracts-consumer project first (it writes ${PACT_DIR}/).`);
  }
  const interactions = pact.interactions.map((interaction: unknown, index) => {
    const i = interaction as { description?: unknown; type?: unknown; request?: Record<string, unknown>; response?: Record<string, unknown> };
    const problem =
      typeof i?.description !== 'string'
        ? 'no description'
        : typeof i.request?.method !== 'string' || typeof i.request.path !== 'string'
          ? 'no request method and path'
          : typeof i.response?.status !== 'number'
            ? 'no response status'
            : undefined;
    if (problem) throw new Error(`interaction #${index} of ${source} has ${problem}. Regenerate the pact from the consumer tests rather than editing it.`);
    return { ...(i as PactInteraction), type: typeof i.type === 'string' ? i.type : 'Synchronous/HTTP' };
  });
  return { ...(value as PactDocument), interactions };
}

/** Writes a copy of the pact holding only `interaction`; answers its path. */
export function writeSingleInteractionPact(pact: PactDocument, interaction: PactInteraction, path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...pact, interactions: [interaction] }, null, 2));
  return path;
}
