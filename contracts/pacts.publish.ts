/**
 * After the consumer tests: the pacts they wrote replace the committed ones
 * (contracts/pacts), one rename per changed file, so a run beside this one
 * reads either the old pact or the new one, never a missing or partial file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as setup, expect } from '../src/testing/harnessTest.ts';
import { PACT_DIR, PACT_OUTPUT_DIR } from './pactNames.ts';

const pactFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : []);

setup('the pacts the consumer tests wrote become the committed pacts', () => {
  const written = pactFiles(PACT_OUTPUT_DIR);
  expect(written, `the consumer tests wrote no pact into ${PACT_OUTPUT_DIR}`).not.toHaveLength(0);
  mkdirSync(PACT_DIR, { recursive: true });
  for (const name of written) {
    const text = readFileSync(join(PACT_OUTPUT_DIR, name), 'utf8');
    const target = join(PACT_DIR, name);
    if (existsSync(target) && readFileSync(target, 'utf8') === text) continue;
    const staged = `${target}.${process.pid}.tmp`;
    writeFileSync(staged, text);
    renameSync(staged, target);
  }
});
