/**
 * Names and ids a test makes up to be unique (a product called
 * "Plain harness 1a2b3c"). On a live run they are random; while a test is
 * recorded or replayed they come from the cassette's seed and a counter, so a
 * replay sends exactly the requests that were recorded.
 */
import { randomBytes, randomUUID } from 'node:crypto';

let seed: string | undefined;
let counter = 0;

/** Set by the recording session for the test it covers; undefined again after it. */
export function useUniqueSeed(value: string | undefined): void {
  seed = value;
  counter = 0;
}

/** A short lower-case token: seeded while recording or replaying, random otherwise. */
export function uniqueToken(): string {
  if (seed === undefined) return `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  counter += 1;
  return `${seed}${counter.toString(36)}`;
}

/** A UUID: seeded while recording or replaying (a fixed pattern around the seed), random otherwise. */
export function uniqueUuid(): string {
  if (seed === undefined) return randomUUID();
  counter += 1;
  const hex = `${seed}${counter.toString(16).padStart(8, '0')}`
    .replace(/[^0-9a-f]/g, '0')
    .padEnd(32, '0')
    .slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
