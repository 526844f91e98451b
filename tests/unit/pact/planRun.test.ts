/**
 * The packaged pact-verify's run in one process (contracts/verification/runPactPlan.ts, started by
 * scripts/pactVerify.ts): its JUnit XML is what a CI system reads, and a port the twins cannot have is a setup
 * problem (exit 2) that names the variable to change, never a stack or a verdict; an interaction not verified
 * fails the run (exit 1), saying why. Its verdicts themselves are
 * shown by tests/self-tests/pacts/outsidePacts.cli.spec.ts and the package check.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { freePort } from '../../../src/http/freePort.ts';
import { junitXml } from '../../../src/reporting/junitXml.ts';
import { writeOutcome } from '../../../contracts/broker/verificationResults.ts';
import { MESSAGE_NOT_VERIFIED } from '../../../contracts/verification/pactProvider.ts';
import { unverifiedInteractions } from '../../../scripts/pactVerify.ts';
import { startStoreTwin } from '../../../src/twins/store/server.ts';

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

test("on live, each team's sandbox is verified beside the others, one bucket each, and the run ends with one table", async () => {
  // A store twin stands for the live service; two teams' sandboxes (STORE_TEAM_SANDBOXES) and a consumer without one.
  const twin = await startStoreTwin({ port: 0, plan: 'plus' });
  try {
    const newToken = async () => ((await (await fetch(`${twin.url}/__twin/stores/100001/tokens`, { method: 'POST' })).json()) as { token: string }).token;
    const [harnessToken, teamToken] = [await newToken(), await newToken()];
    const { done } = liveTeamRun(['jvm-price-board', 'js9-storefront-menu', 'spec11-menu-feed'], {
      STORE_API_URL: twin.url,
      STORE_ID: '100001',
      STORE_ACCESS_TOKEN: harnessToken!,
      LIVE_STORE_ALLOWLIST: '100001,100002',
      STORE_TEAM_SANDBOXES: JSON.stringify({
        'jvm-price-board': { storeId: '100001', token: 'twin-token-100001' },
        'spec11-menu-feed': { storeId: '100001', token: teamToken },
      }),
    });
    const { code, output } = await done;
    expect(code, output).toBe(0);
    expect(output).toContain('3 sandboxes, verified side by side, one bucket each:');
    expect(output).toMatch(/store 100001, as jvm-price-board's app: 2 verified, 0 failed, 0 not verified in/);
    expect(output).toMatch(/store 100001, as spec11-menu-feed's app: 1 verified, 0 failed, 0 not verified in/);
    expect(output).toMatch(/store 100001, as the harness: 2 verified, 0 failed, 0 not verified in/);
    expect(output, 'no token is printed').not.toMatch(/twin-token-100001/);
  } finally {
    await twin.close();
  }
});

test("a lane's process that dies mid-run stops the verification: exit 3 (not a team's failure), said why", async () => {
  test.skip(availableParallelism() < 2, 'a process per sandbox needs two cores');
  // One team's sandbox is served by a host that takes the connection and never answers: its lane is mid-verification
  // when the host sees it, and is killed then. The harness's sandbox is a store twin.
  const twin = await startStoreTwin({ port: 0, plan: 'plus' });
  const held = createServer(() => undefined);
  await new Promise<void>((listening) => held.listen(0, '127.0.0.1', listening));
  try {
    const { child, done } = liveTeamRun(['jvm-price-board', 'js9-storefront-menu'], {
      STORE_API_URL: twin.url,
      STORE_ID: '100001',
      STORE_ACCESS_TOKEN: 'twin-token-100001',
      LIVE_STORE_ALLOWLIST: '100001',
      STORE_TEAM_SANDBOXES: JSON.stringify({
        'jvm-price-board': { storeId: '100001', token: 'team-token', apiUrl: `http://127.0.0.1:${(held.address() as AddressInfo).port}` },
      }),
    });
    held.once('connection', () => {
      for (const pid of descendants(child.pid!).filter(({ args }) => args.includes('--verify-lane'))) process.kill(pid.pid, 'SIGKILL');
    });
    const { code, output } = await done;
    expect(code, output).toBe(3);
    expect(output).toMatch(/pact[:-]verify: the verification stopped: a lane of the verification stopped \(SIGKILL\) before its last verdict/);
  } finally {
    held.closeAllConnections();
    held.close();
    await twin.close();
  }
});

/** The processes below `pid`, with their command lines (ps). */
function descendants(pid: number): { pid: number; args: string }[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const found: { pid: number; args: string }[] = [];
  const below = (parent: number) => {
    for (const row of rows.filter((r) => r.ppid === parent)) {
      found.push(row);
      below(row.pid);
    }
  };
  below(pid);
  return found;
}

/**
 * `npx api-contract-harness pact-verify --pact <folder> --target live` in a team's folder holding these tool pacts
 * (tests/fixtures/pacts/tools, `<consumer>-store-commerce-api.json`), with the live store variables given.
 */
function liveTeamRun(consumers: string[], env: Record<string, string>) {
  const team = mkdtempSync(join(tmpdir(), 'team-run-'));
  for (const consumer of consumers)
    cpSync(resolve('tests/fixtures/pacts/tools', `${consumer}-store-commerce-api.json`), join(team, `${consumer}-store-commerce-api.json`));
  const child = spawn(process.execPath, [resolve('scripts/cli.ts'), 'pact-verify', '--pact', team, '--target', 'live'], {
    cwd: team,
    env: { ...process.env, HARNESS_TARGET: 'live', HARNESS_REPORTS_DIR: '', STORE_USER_AGENT: 'Harness nightly (ops@example.com)', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, done: new Promise<{ code: number | null; output: string }>((exited) => child.on('close', (code) => exited({ code, output }))) };
}
