/**
 * The deploy gate's script (scripts/pactBroker.ts): how it builds the broker client's command and
 * environment, and, end to end, what Pact's own broker client sends to a fake broker on loopback.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  brokerCommand,
  buildUrl,
  CONSUMERS,
  consumerVersion,
  DEFAULT_PACT_DIR,
  noBrokerMessage,
  PactBrokerConfigError,
  printable,
  ROOT,
  sendsCredentialsInClear,
  systemGit,
  type Git,
} from '../../../scripts/pactBroker.ts';
import { startScriptedServer, type RecordedRequest, type Reply } from '../support/scriptedServer.ts';
import { publishAnswer } from './brokerStandIn.ts';

const TOKEN = 'tok-3c1f9e-never-print-me';
const BROKER = { PACT_BROKER_BASE_URL: 'https://broker.example.com/', PACT_BROKER_TOKEN: TOKEN };

/** A git that answers from a table (key: the arguments joined by spaces) and fails otherwise. */
function fakeGit(answers: Record<string, string>): Git {
  return (args) => answers[args.join(' ')];
}
const cleanCheckout = fakeGit({ 'rev-parse --short=12 HEAD': '0123456789ab', 'status --porcelain': '', 'rev-parse --abbrev-ref HEAD': 'main' });
const noGit: Git = () => undefined;

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PactBrokerConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a PactBrokerConfigError');
}

test.describe('the broker client command', () => {
  test('publish sends the pact directory as the commit, on its branch, with credentials only in the environment', () => {
    const command = brokerCommand('publish', { ...BROKER, PATH: '/usr/bin' }, cleanCheckout);
    expect(command.args).toEqual(['publish', DEFAULT_PACT_DIR, '--consumer-app-version', '0123456789ab', '--branch', 'main']);
    expect(command.env).toMatchObject({
      PACT_BROKER_BASE_URL: 'https://broker.example.com',
      PACT_BROKER_TOKEN: TOKEN,
      PACT_DO_NOT_TRACK: 'true',
      PATH: '/usr/bin',
    });
    expect(command.auth).toBe('bearer token');
    expect(command.args.join(' ')).not.toContain(TOKEN);
    expect(printable(command.args)).not.toContain(TOKEN);
  });

  test('can-i-deploy asks about both consumers at the same version, for production unless PACT_ENVIRONMENT says otherwise', () => {
    const pairs = CONSUMERS.flatMap((consumer) => ['--pacticipant', consumer, '--version', '0123456789ab']);
    expect(brokerCommand('can-i-deploy', BROKER, cleanCheckout).args).toEqual(['can-i-deploy', ...pairs, '--to-environment', 'production']);
    expect(
      brokerCommand('can-i-deploy', { ...BROKER, PACT_ENVIRONMENT: 'staging', PACT_RETRY_WHILE_UNKNOWN: '12', PACT_RETRY_INTERVAL: '10' }, cleanCheckout).args,
    ).toEqual(['can-i-deploy', ...pairs, '--to-environment', 'staging', '--retry-while-unknown', '12', '--retry-interval', '10']);
    expect(configError(() => brokerCommand('can-i-deploy', { ...BROKER, PACT_RETRY_WHILE_UNKNOWN: 'lots' }, cleanCheckout))).toMatch(
      /PACT_RETRY_WHILE_UNKNOWN must be a whole number/,
    );
  });

  test('can-i-deploy needs no branch: a detached CI checkout is fine', () => {
    const detached = fakeGit({ 'rev-parse --short=12 HEAD': '0123456789ab', 'status --porcelain': '', 'rev-parse --abbrev-ref HEAD': 'HEAD' });
    expect(brokerCommand('can-i-deploy', BROKER, detached).version).toBe('0123456789ab');
    expect(configError(() => brokerCommand('publish', BROKER, detached))).toMatch(/HEAD is detached.*set PACT_BRANCH/);
  });

  test('the build URL comes from BUILD_URL, else from the GitHub Actions run', () => {
    expect(buildUrl({ BUILD_URL: 'https://ci.example.com/job/7/' })).toBe('https://ci.example.com/job/7/');
    expect(buildUrl({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/harness', GITHUB_RUN_ID: '42' })).toBe(
      'https://github.com/acme/harness/actions/runs/42',
    );
    expect(buildUrl({ GITHUB_SERVER_URL: 'https://github.com' })).toBeUndefined();
    expect(brokerCommand('publish', { ...BROKER, BUILD_URL: 'https://ci.example.com/job/7/' }, cleanCheckout).args.slice(-2)).toEqual([
      '--build-url',
      'https://ci.example.com/job/7/',
    ]);
  });

  test('an unknown subcommand is refused with the usage', () => {
    expect(configError(() => brokerCommand('deploy', BROKER, cleanCheckout))).toMatch(/Unknown subcommand "deploy"[\s\S]*Usage:/);
  });

  test('printed commands quote what a shell would split', () => {
    expect(printable(['publish', 'contracts/pacts', '--branch', "feat/it's here"])).toBe("pact-broker publish contracts/pacts --branch 'feat/it'\\''s here'");
  });
});

test.describe('the consumer version', () => {
  test('is the commit on a clean tree, and the commit plus -dirty when the tree has changes', () => {
    expect(consumerVersion({}, cleanCheckout)).toBe('0123456789ab');
    const dirty = fakeGit({ 'rev-parse --short=12 HEAD': '0123456789ab', 'status --porcelain': '?? scripts/new.ts' });
    expect(consumerVersion({}, dirty)).toBe('0123456789ab-dirty');
  });

  test('PACT_CONSUMER_VERSION and PACT_BRANCH win over git, which is then not asked', () => {
    const command = brokerCommand('publish', { ...BROKER, PACT_CONSUMER_VERSION: ' 1.4.2+abc ', PACT_BRANCH: 'release/1.4' }, noGit);
    expect(command.args).toEqual(['publish', DEFAULT_PACT_DIR, '--consumer-app-version', '1.4.2+abc', '--branch', 'release/1.4']);
  });

  test('without git and without PACT_CONSUMER_VERSION, the error names the fix', () => {
    expect(configError(() => brokerCommand('can-i-deploy', BROKER, noGit))).toMatch(/Cannot tell the consumer version.*set PACT_CONSUMER_VERSION/);
    // A repository without a readable status is not assumed clean.
    expect(configError(() => consumerVersion({}, fakeGit({ 'rev-parse --short=12 HEAD': '0123456789ab' })))).toMatch(/PACT_CONSUMER_VERSION/);
    expect(configError(() => brokerCommand('publish', { ...BROKER, PACT_CONSUMER_VERSION: '1.0.0' }, noGit))).toMatch(
      /Cannot tell the branch.*set PACT_BRANCH/,
    );
  });

  test('on this checkout, the real git gives a 12-digit commit, -dirty exactly when git status shows changes', () => {
    const status = spawnSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' });
    test.skip(status.status !== 0, 'no git here');
    const version = consumerVersion({}, systemGit());
    expect(version).toMatch(/^[0-9a-f]{12}(-dirty)?$/);
    expect(version.endsWith('-dirty')).toBe(status.stdout.trim() !== '');
  });
});

test.describe('the broker and its credentials', () => {
  test('no PACT_BROKER_BASE_URL: the message says what the command does, what to set, and where each kind of pact is still verified locally', () => {
    const message = configError(() => brokerCommand('publish', { PACT_BROKER_BASE_URL: '  ' }, cleanCheckout));
    expect(message).toBe(noBrokerMessage('publish'));
    expect(message).toMatch(/PACT_BROKER_BASE_URL is not set/);
    expect(message).toMatch(/PACT_BROKER_TOKEN/);
    expect(message).toMatch(/the harness's own by `npm test`/);
    expect(message).toMatch(/a team's by\n`npx api-contract-harness pact-verify --pact \.\/pacts`/);
  });

  test('the URL must be http or https, and hold no credentials (which are then not echoed)', () => {
    expect(configError(() => brokerCommand('publish', { PACT_BROKER_BASE_URL: 'ftp://broker.example.com' }, cleanCheckout))).toMatch(
      /http or https URL, not ftp:/,
    );
    expect(configError(() => brokerCommand('publish', { PACT_BROKER_BASE_URL: 'broker.example.com' }, cleanCheckout))).toMatch(/not a valid URL.*https:\/\//);
    const withCredentials = configError(() => brokerCommand('publish', { PACT_BROKER_BASE_URL: `https://ci:${TOKEN}@broker.example.com` }, cleanCheckout));
    expect(withCredentials).toMatch(/holds credentials.*PACT_BROKER_USERNAME/);
    expect(withCredentials).not.toContain(TOKEN);
  });

  test('basic auth travels as PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD; half of it, or both kinds, is refused', () => {
    const basic = { PACT_BROKER_BASE_URL: 'https://broker.example.com', PACT_BROKER_USERNAME: 'ci', PACT_BROKER_PASSWORD: TOKEN };
    const command = brokerCommand('can-i-deploy', basic, cleanCheckout);
    expect(command.auth).toBe('basic auth');
    expect(command.env).toMatchObject({ PACT_BROKER_USERNAME: 'ci', PACT_BROKER_PASSWORD: TOKEN });
    expect(command.args.join(' ')).not.toContain(TOKEN);
    expect(configError(() => brokerCommand('publish', { ...basic, PACT_BROKER_PASSWORD: '' }, cleanCheckout))).toMatch(/PACT_BROKER_PASSWORD is missing/);
    expect(configError(() => brokerCommand('publish', { ...basic, PACT_BROKER_TOKEN: TOKEN }, cleanCheckout))).toMatch(/set only one kind of credentials/);
  });

  test('an empty credential variable is not passed on, so the client sends no empty "Bearer "', () => {
    const command = brokerCommand('publish', { PACT_BROKER_BASE_URL: 'https://broker.example.com', PACT_BROKER_TOKEN: '' }, cleanCheckout);
    expect(command.auth).toBe('no credentials');
    expect('PACT_BROKER_TOKEN' in command.env).toBe(false);
  });

  test('credentials over plain http are flagged, except to this machine', () => {
    expect(sendsCredentialsInClear(brokerCommand('publish', { ...BROKER, PACT_BROKER_BASE_URL: 'http://pact-broker:9292' }, cleanCheckout))).toBe(true);
    expect(sendsCredentialsInClear(brokerCommand('publish', { ...BROKER, PACT_BROKER_BASE_URL: 'http://127.0.0.1:9292' }, cleanCheckout))).toBe(false);
    expect(sendsCredentialsInClear(brokerCommand('publish', BROKER, cleanCheckout))).toBe(false);
  });
});

// ---- the script as a process ----------------------------------------------------------------

interface Run {
  code: number | null;
  output: string;
}

/** Runs the script with Node 24, in an environment cleared of any PACT_*, BUILD_URL or GITHUB_* of this shell. */
function runScript(args: string[], env: Record<string, string>): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PACT_|BUILD_URL$|GITHUB_)/.test(name)));
  // No retries: a fake broker's error should fail at once, not after minutes of back-off.
  const child = spawn(join(ROOT, 'node_modules/.bin/node'), ['scripts/pactBroker.ts', ...args], {
    cwd: ROOT,
    env: { ...base, PACT_BROKER_HTTP_RETRIES: '0', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

test.describe('the script as a process', () => {
  test('publish without PACT_BROKER_BASE_URL explains, runs nothing and exits 2', async () => {
    const run = await runScript(['publish'], { PACT_BROKER_TOKEN: TOKEN });
    expect(run.code).toBe(2);
    expect(run.output).toContain(noBrokerMessage('publish'));
    expect(run.output).not.toContain('$ pact-broker');
    expect(run.output).not.toContain(TOKEN);
  });

  test('--help prints the usage and exits 0; an unknown subcommand or an argument exits 2', async () => {
    const help = await runScript(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.output).toMatch(/Usage: node scripts\/pactBroker\.ts <publish\|can-i-deploy>/);
    expect((await runScript(['deploy'], {})).code).toBe(2);
    const extra = await runScript(['publish', '--broker-token', TOKEN], {});
    expect(extra.code).toBe(2);
    expect(extra.output).not.toContain(TOKEN);
  });
});

// ---- end to end: Pact's broker client against a fake broker -----------------------------------

/**
 * The committed pact files, read through git: contracts/pacts itself is rewritten by the
 * contracts-publish project, which may be running beside this test.
 */
function committedPacts(): { name: string; text: string }[] {
  const git = systemGit();
  const names =
    git(['ls-files', `${DEFAULT_PACT_DIR}/*.json`])
      ?.split('\n')
      .filter(Boolean) ?? [];
  return names.map((path) => ({ name: path.split('/').pop()!, text: git(['show', `HEAD:${path}`]) ?? '' }));
}

interface Pact {
  consumer: { name: string };
  provider: { name: string };
  interactions: { description: string }[];
}

/**
 * The few HAL resources the Rust client reads (logged from its requests): the index for the
 * pb:publish-contracts relation, that relation (one POST per pact), and the matrix for can-i-deploy.
 */
function fakeBroker(deployable: () => boolean) {
  let origin = '';
  const link = (path: string) => ({ href: `${origin}${path}`, name: 'fake', title: 'fake' });
  const handler = (request: RecordedRequest): Reply => {
    if (request.method === 'GET' && request.url === '/') return { json: { _links: { 'pb:publish-contracts': { href: `${origin}/contracts/publish` } } } };
    if (request.method === 'POST' && request.url === '/contracts/publish') {
      const body = JSON.parse(request.body) as { pacticipantName: string; pacticipantVersionNumber: string };
      return { json: publishAnswer('fake broker', body, link) };
    }
    if (request.method === 'GET' && request.url.startsWith('/matrix?')) {
      const yes = deployable();
      return {
        json: {
          summary: {
            deployable: yes,
            reason: yes ? 'fake: all verified' : 'fake: media-tracking-api failed verification',
            success: yes ? 2 : 0,
            failed: yes ? 0 : 1,
            unknown: 0,
          },
          matrix: [],
        },
      };
    }
    return { status: 404, json: {} };
  };
  return startScriptedServer(handler, { contentType: 'application/hal+json', headersOf: (req) => ({ authorization: req.headers.authorization ?? '' }) }).then(
    (server) => {
      origin = server.origin;
      return server;
    },
  );
}

test.describe('end to end against a fake Pact Broker', () => {
  let pactDir = '';
  let pacts: Pact[] = [];

  test.beforeAll(() => {
    const files = committedPacts();
    test.skip(files.length === 0, 'no committed pact files (or no git) here');
    pactDir = mkdtempSync(join(tmpdir(), 'pact-broker-test-'));
    for (const file of files) writeFileSync(join(pactDir, file.name), file.text);
    pacts = files.map((file) => JSON.parse(file.text) as Pact);
  });
  test.afterAll(() => {
    if (pactDir) rmSync(pactDir, { recursive: true, force: true });
  });

  test('publish sends every pact file with the version, branch and build URL, the token as a bearer header, and never prints it', async () => {
    const broker = await fakeBroker(() => true);
    try {
      const run = await runScript(['publish'], {
        PACT_BROKER_BASE_URL: broker.origin,
        PACT_BROKER_TOKEN: TOKEN,
        PACT_CONSUMER_VERSION: 'e2e-0123456789ab',
        PACT_BRANCH: 'feat/deploy-gate',
        BUILD_URL: 'https://ci.example.com/job/7',
        PACT_DIR: pactDir,
      });
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(
        /\$ pact-broker publish \S+ --consumer-app-version e2e-0123456789ab --branch feat\/deploy-gate --build-url https:\/\/ci.example.com\/job\/7/,
      );
      expect(run.output).not.toContain(TOKEN);

      expect(broker.requests[0]).toMatchObject({ method: 'GET', url: '/' });
      const posts = broker.requests.filter((r) => r.method === 'POST' && r.url === '/contracts/publish');
      for (const request of broker.requests) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);

      interface Publication {
        pacticipantName: string;
        pacticipantVersionNumber: string;
        branch: string;
        buildUrl: string;
        contracts: { consumerName: string; providerName: string; specification: string; content: string }[];
      }
      const published = posts.map((r) => JSON.parse(r.body) as Publication).sort((a, b) => a.pacticipantName.localeCompare(b.pacticipantName));
      expect(published.map((p) => p.pacticipantName)).toEqual(pacts.map((p) => p.consumer.name).sort());
      for (const publication of published) {
        expect(publication).toMatchObject({
          pacticipantVersionNumber: 'e2e-0123456789ab',
          branch: 'feat/deploy-gate',
          buildUrl: 'https://ci.example.com/job/7',
        });
        const [contract] = publication.contracts;
        const sent = JSON.parse(Buffer.from(contract!.content, 'base64').toString('utf8')) as Pact;
        const file = pacts.find((p) => p.consumer.name === publication.pacticipantName)!;
        expect(contract).toMatchObject({ consumerName: file.consumer.name, providerName: file.provider.name, specification: 'pact' });
        // The client re-serialises the pact, so compare what it says, not its bytes.
        expect(sent.provider.name).toBe(file.provider.name);
        expect(sent.interactions.map((i) => i.description)).toEqual(file.interactions.map((i) => i.description));
      }
    } finally {
      await broker.close();
    }
  });

  test('the committed pacts are exactly the consumers can-i-deploy asks about', () => {
    expect(pacts.map((p) => p.consumer.name).sort()).toEqual([...CONSUMERS].sort());
  });

  test('can-i-deploy exits 0 when the broker says deployable and non-zero when it says not, asking about both consumers', async () => {
    let deployable = true;
    const broker = await fakeBroker(() => deployable);
    try {
      const env = {
        PACT_BROKER_BASE_URL: broker.origin,
        PACT_BROKER_USERNAME: 'ci',
        PACT_BROKER_PASSWORD: TOKEN,
        PACT_CONSUMER_VERSION: 'e2e-0123456789ab',
        PACT_ENVIRONMENT: 'staging',
      };
      const yes = await runScript(['can-i-deploy'], env);
      expect(yes.code, yes.output).toBe(0);
      expect(yes.output).toContain('pact:can-i-deploy: yes');

      deployable = false;
      const no = await runScript(['can-i-deploy'], env);
      expect(no.code, no.output).not.toBe(0);
      expect(no.output).toContain('pact:can-i-deploy: NO');
      expect(yes.output + no.output).not.toContain(TOKEN);

      const matrix = broker.requests.filter((r) => r.url.startsWith('/matrix?'));
      expect(matrix).toHaveLength(2);
      const query = decodeURIComponent(matrix[0]!.url);
      for (const consumer of CONSUMERS) expect(query).toContain(`q[][pacticipant]=${consumer}&q[][version]=e2e-0123456789ab`);
      expect(query).toContain('environment=staging');
      for (const request of broker.requests) expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`ci:${TOKEN}`).toString('base64')}`);
    } finally {
      await broker.close();
    }
  });

  test('a broker that cannot answer blocks the deploy too', async () => {
    const broker = await startScriptedServer(() => ({ status: 500, json: { error: 'fake outage' } }), {
      contentType: 'application/json',
      headersOf: () => ({}),
    });
    try {
      const run = await runScript(['can-i-deploy'], { PACT_BROKER_BASE_URL: broker.origin, PACT_CONSUMER_VERSION: 'e2e-0123456789ab' });
      expect(run.code, run.output).not.toBe(0);
    } finally {
      await broker.close();
    }
  });
});
