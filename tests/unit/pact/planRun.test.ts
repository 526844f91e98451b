/**
 * The packaged pact-verify's run in one process (contracts/verification/runPactPlan.ts, started by
 * scripts/pactVerify.ts): its JUnit XML is what a CI system reads, and a port the twins cannot have is a setup
 * problem (exit 2) that names the variable to change, never a stack or a verdict; an interaction not verified
 * fails the run (exit 1), saying why. Its verdicts themselves are
 * shown by tests/self-tests/pacts/outsidePacts.cli.spec.ts and the package check.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { freePort } from '../../../src/http/freePort.ts';
import { junitXml } from '../../../src/reporting/junitXml.ts';
import { writeOutcome } from '../../../contracts/broker/verificationResults.ts';
import { MESSAGE_NOT_VERIFIED } from '../../../contracts/verification/pactProvider.ts';
import { unverifiedInteractions } from '../../../scripts/pactVerify.ts';

test('JUnit XML: one suite per pact with its counts; a failure and a skip carry their text, escaped, without colour codes', () => {
  const xml = junitXml([
    { suite: 'app → store-commerce-api', name: 'a list', seconds: 0.5, status: 'passed' },
    {
      suite: 'app → store-commerce-api',
      name: 'a "quoted" <one>',
      seconds: 0.25,
      status: 'failed',
      text: 'expected 1 & got \u001b[31m2\u001b[39m\nWho acts: the consumer',
    },
    { suite: 'app → media-tracking-api', name: 'a delivery', seconds: 0, status: 'skipped', text: 'message not verified: on replay' },
  ]);
  expect(xml).toContain('<testsuites tests="3" failures="1" skipped="1" errors="0" time="0.750">');
  expect(xml).toContain('<testsuite name="app → store-commerce-api" tests="2" failures="1" skipped="0" errors="0" time="0.750">');
  expect(xml).toContain('<testcase name="a &quot;quoted&quot; &lt;one&gt;" classname="app → store-commerce-api" time="0.250">');
  expect(xml).toContain('<failure message="expected 1 &amp; got [31m2[39m">expected 1 &amp; got [31m2[39m\nWho acts: the consumer</failure>');
  expect(xml).toContain('<skipped message="message not verified: on replay"/>');
  expect(xml).not.toContain('\u001b');
});

test('a twin port held by another program: exit 2 naming the port and the variable that moves it, before any verdict', async () => {
  const squatter = createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((listening) => squatter.listen(0, '127.0.0.1', listening));
  const port = (squatter.address() as AddressInfo).port;
  try {
    const team = mkdtempSync(join(tmpdir(), 'team-ports-'));
    const child = spawn(
      process.execPath,
      [resolve('scripts/cli.ts'), 'pact-verify', '--pact', resolve('examples/pacts/media-library-reader-media-tracking-api.json')],
      {
        cwd: team,
        env: { ...process.env, HARNESS_TARGET: 'twin', STORE_TWIN_PORT: String(port), KITSU_TWIN_PORT: String(await freePort()), HARNESS_REPORTS_DIR: '' },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((exited) => child.on('close', exited));
    expect(code, output).toBe(2);
    expect(output).toContain(`the store twin: port ${port} on 127.0.0.1 is already in use`);
    expect(output).toContain('give STORE_TWIN_PORT a free port');
    expect(output).not.toMatch(/verified, \d+ failed|at .*\.ts:\d+/);
  } finally {
    squatter.close();
  }
});

test('an interaction not verified fails the run (exit 1), each reason said once with the interactions it kept out', () => {
  const run = `plan-run-unverified-${process.pid}-${Date.now()}`;
  expect(
    unverifiedInteractions(run, () => undefined),
    'a run with no outcome written has nothing unverified',
  ).toBe(0);
  writeOutcome({ pact: 'app → store-commerce-api', description: 'a list', status: 'passed' }, run);
  expect(
    unverifiedInteractions(run, () => undefined),
    'every interaction verified',
  ).toBe(0);
  const write = 'the interaction sends POST /products, which can write to the live store API: set STORE_ALLOW_WRITES=1 to verify it';
  writeOutcome({ pact: 'app → store-commerce-api', description: 'a create', status: 'skipped', reason: write }, run);
  writeOutcome({ pact: 'app → store-commerce-api', description: 'an update', status: 'skipped', reason: write }, run);
  writeOutcome(
    {
      pact: 'app → store-commerce-api',
      description: 'a delivery',
      status: 'skipped',
      reason: `${MESSAGE_NOT_VERIFIED}: on replay no delivery can be observed`,
    },
    run,
  );
  const lines: string[] = [];
  expect(unverifiedInteractions(run, (line) => lines.push(line))).toBe(1);
  expect(lines).toEqual([
    `pact:verify: 2 interaction(s) not verified ("a create", "an update"): ${write}`,
    `pact:verify: 1 interaction(s) not verified ("a delivery"): a message interaction: on replay no delivery can be observed`,
    "pact:verify: the run does not pass without them (not verified: 3 of the pacts' interactions).",
  ]);
});
