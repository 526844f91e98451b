/**
 * The committed pact files, read as Pact wrote them (V4), and cut into
 * one-interaction pacts so each interaction is verified, reported and skipped
 * on its own.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface PactNames {
  readonly consumer: string;
  readonly provider: string;
  readonly dir: string;
}

export interface PactProviderState {
  readonly name: string;
  readonly params?: Record<string, unknown>;
}

export interface PactInteraction {
  readonly description: string;
  readonly providerStates?: readonly PactProviderState[];
  readonly request: { readonly method: string; readonly path: string; readonly headers?: Record<string, string[]> };
  readonly response: { readonly status: number };
}

export interface PactDocument {
  readonly consumer: { readonly name: string };
  readonly provider: { readonly name: string };
  readonly interactions: readonly PactInteraction[];
  readonly metadata: { readonly pactSpecification?: { readonly version?: string } };
}

/** Where Pact writes the pact between these two: `<dir>/<consumer>-<provider>.json`. */
export function pactPath(names: PactNames): string {
  return resolve(names.dir, `${names.consumer}-${names.provider}.json`);
}

/** Reads and checks a pact file: it must exist, be V4 and hold interactions. */
export function readPact(names: PactNames): PactDocument {
  const path = pactPath(names);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`No pact at ${path}. Fix: write it with the consumer tests: npx playwright test --project=contracts-consumer.`);
  }
  const pact = JSON.parse(text) as PactDocument;
  const version = pact.metadata?.pactSpecification?.version;
  if (!version?.startsWith('4.') || !Array.isArray(pact.interactions) || pact.interactions.length === 0) {
    throw new Error(`${path} is not a PactV4 file with interactions (specification ${version ?? 'missing'}). Fix: regenerate it with the consumer tests.`);
  }
  return pact;
}

/** Writes a copy of the pact holding only `interaction`; answers its path. */
export function writeSingleInteractionPact(pact: PactDocument, interaction: PactInteraction, path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...pact, interactions: [interaction] }, null, 2));
  return path;
}
