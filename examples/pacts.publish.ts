/**
 * After the examples' consumer tests: the pacts they wrote replace the committed ones in examples/pacts,
 * one rename per changed file (as contracts/pacts.publish.ts does for the harness's own), so a run beside
 * this one reads either the old pact or the new one.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test as setup } from '../src/testing/harnessTest.ts';
import { EXAMPLE_PACT_DIR, EXAMPLE_PACT_OUTPUT } from './pactOutput.ts';

setup("the pacts the examples' consumer tests wrote become the committed ones", () => {
  const written = existsSync(EXAMPLE_PACT_OUTPUT) ? readdirSync(EXAMPLE_PACT_OUTPUT).filter((name) => name.endsWith('.json')) : [];
  expect(written, `the examples' consumer tests wrote no pact into ${EXAMPLE_PACT_OUTPUT}`).not.toHaveLength(0);
  mkdirSync(EXAMPLE_PACT_DIR, { recursive: true });
  for (const name of written) {
    const text = readFileSync(join(EXAMPLE_PACT_OUTPUT, name), 'utf8');
    const target = join(EXAMPLE_PACT_DIR, name);
    if (existsSync(target) && readFileSync(target, 'utf8') === text) continue;
    const staged = `${target}.${process.pid}.tmp`;
    writeFileSync(staged, text);
    renameSync(staged, target);
  }
});
