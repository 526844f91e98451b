/**
 * A local stand-in for a Pact Broker, speaking the HAL API for exactly the
 * requests the harness's broker clients send (Pact's Rust CLI for publish and
 * can-i-deploy, contracts/broker/BrokerClient.ts for verification), as the
 * broker documents them. It keeps what is published, answers the pacts for
 * verification from it (by main branch, branch, or what is deployed), serves
 * each pact with an `_id` per interaction as the broker does, keeps the
 * verification results, deployments, branches and tags, and answers the matrix
 * from them: a version recorded as deployed replaces the one deployed before in
 * that environment (same application instance), and can-i-deploy asks about the
 * provider version deployed there now. Every request is recorded.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ROOT } from '../../../scripts/pactBroker.ts';
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from '../support/scriptedServer.ts';

/**
 * Runs a script with Node 24 from the repository root, without this shell's PACT_*, BUILD_URL, GITHUB_* or HARNESS_* variables:
 * its exit code, what it printed on both streams in order, and its stdout alone.
 */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string; stdout: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PACT_|BUILD_URL$|GITHUB_|HARNESS_|STORE_|KITSU_|LIVE_)/.test(name)));
  const child = spawn(join(ROOT, 'node_modules/.bin/node'), [script, ...args], {
    cwd: ROOT,
    env: { ...base, PACT_BROKER_HTTP_RETRIES: '0', PACT_DO_NOT_TRACK: 'true', ...env },
  });
  let output = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output, stdout })));
}

/** The broker's id of an interaction: a hash of its content (the real one hashes it too). */
export function interactionId(interaction: unknown): string {
  return createHash('sha1').update(JSON.stringify(interaction)).digest('hex');
}

/** A pact's interactions as the broker serves them, each with its `_id`: hashed once, when the pact is published, as the broker does. */
const served = new WeakMap<PublishedPact, Record<string, unknown>[]>();
function servedInteractions(pact: PublishedPact): Record<string, unknown>[] {
  let interactions = served.get(pact);
  if (!interactions) {
    interactions = ((pact.content['interactions'] ?? []) as Record<string, unknown>[]).map((i) => ({ _id: interactionId(i), ...i }));
    served.set(pact, interactions);
  }
  return interactions;
}

export interface PublishedPact {
  readonly consumer: string;
  readonly provider: string;
  readonly version: string;
  readonly branch: string;
  readonly id: number;
  readonly content: Record<string, unknown>;
}

export interface PublishedResult {
  readonly consumer: string;
  readonly consumerVersion: string;
  readonly provider: string;
  readonly body: {
    success: boolean;
    providerApplicationVersion: string;
    testResults: { interactionId?: string; interactionDescription: string; success: boolean; mismatches?: { attribute?: string; description: string }[] }[];
  };
}

export interface BrokerStandIn extends ScriptedServer {
  readonly pacts: PublishedPact[];
  readonly results: PublishedResult[];
  /** `provider version → environment names` it was recorded deployed to. */
  readonly deployments: { pacticipant: string; version: string; environment: string; applicationInstance?: string }[];
  readonly branches: { pacticipant: string; branch: string; version: string }[];
  readonly tags: { pacticipant: string; version: string; tag: string }[];
  /** What a team's publish would have stored (Pact's own publish is shown by the end-to-end test of the twins). */
  publish(pact: Omit<PublishedPact, 'id'>): void;
  /** The version of `pacticipant` deployed to `environment` now: the last recorded there for that application instance, if any. */
  deployedNow(pacticipant: string, environment: string): string[];
}

const ENVIRONMENTS = [
  { name: 'production', uuid: 'e-production' },
  { name: 'twin-gate', uuid: 'e-twin-gate' },
];

/**
 * The broker's answer to POST /contracts/publish, shaped as Pact's clients parse it (so they print the
 * notice, not a warning); `link` builds the broker's own URLs.
 */
export function publishAnswer(
  who: string,
  body: { pacticipantName: string; pacticipantVersionNumber: string },
  link: (path: string) => Record<string, unknown>,
): Record<string, unknown> {
  return {
    notices: [{ type: 'success', text: `${who}: stored ${body.pacticipantName} ${body.pacticipantVersionNumber}` }],
    logs: [],
    _embedded: {
      pacticipant: { name: body.pacticipantName, _links: { self: link('/pacticipants/x') } },
      version: { number: body.pacticipantVersionNumber, _links: { self: link('/version') } },
    },
    _links: {
      'pb:contracts': [link('/pact')],
      'pb:pacticipant': link('/pacticipant'),
      'pb:pacticipant-version': link('/version'),
      'pb:pacticipant-version-tags': [],
    },
  };
}

/** The stand-in on `port` (a free one when not given). */
export async function startBrokerStandIn(port?: number): Promise<BrokerStandIn> {
  const pacts: PublishedPact[] = [];
  const results: PublishedResult[] = [];
  const deployments: BrokerStandIn['deployments'] = [];
  const branches: BrokerStandIn['branches'] = [];
  const tags: BrokerStandIn['tags'] = [];
  let origin = '';
  const link = (path: string, extra: Record<string, unknown> = {}) => ({ href: `${origin}${path}`, ...extra });
  /** The versions of a pacticipant deployed now: per environment and application instance, the last one recorded. */
  const deployedNow = (pacticipant: string, environment?: string): string[] => {
    const current = new Map<string, string>();
    for (const d of deployments.filter((d) => d.pacticipant === pacticipant && (!environment || d.environment === environment)))
      current.set(`${d.environment}\n${d.applicationInstance ?? ''}`, d.version);
    return [...current.values()];
  };
  const pactPath = (pact: PublishedPact) =>
    `/pacts/provider/${encodeURIComponent(pact.provider)}/consumer/${encodeURIComponent(pact.consumer)}/pact-version/${pact.id}`;

  const handler = (request: RecordedRequest): Reply => {
    const url = new URL(request.url, 'http://stand-in');
    const path = decodeURIComponent(url.pathname);
    // Split before decoding: a branch may hold a slash (feat/x, sent as feat%2Fx).
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (request.method === 'GET' && path === '/') {
      return {
        json: {
          _links: {
            'pb:publish-contracts': link('/contracts/publish'),
            'pb:provider-pacts-for-verification': link('/pacts/provider/{provider}/for-verification', { templated: true }),
            'pb:pacticipant': link('/pacticipants/{pacticipant}', { templated: true }),
            'pb:environments': link('/environments'),
          },
        },
      };
    }
    if (request.method === 'POST' && path === '/contracts/publish') {
      const body = JSON.parse(request.body) as {
        pacticipantName: string;
        pacticipantVersionNumber: string;
        branch: string;
        contracts: { providerName: string; content: string }[];
      };
      for (const contract of body.contracts) {
        pacts.push({
          consumer: body.pacticipantName,
          provider: contract.providerName,
          version: body.pacticipantVersionNumber,
          branch: body.branch,
          id: pacts.length + 1,
          content: JSON.parse(Buffer.from(contract.content, 'base64').toString('utf8')) as Record<string, unknown>,
        });
        servedInteractions(pacts.at(-1)!);
      }
      return { json: publishAnswer('stand-in', body, link) };
    }
    // POST /pacts/provider/{provider}/for-verification
    if (request.method === 'POST' && parts[0] === 'pacts' && parts[3] === 'for-verification') {
      const provider = parts[2]!;
      const { consumerVersionSelectors } = JSON.parse(request.body) as {
        consumerVersionSelectors: {
          mainBranch?: boolean;
          branch?: string;
          consumer?: string;
          deployedOrReleased?: boolean;
          deployed?: boolean;
          environment?: string;
        }[];
      };
      const deployed = (pact: PublishedPact, environment?: string) => deployedNow(pact.consumer, environment).includes(pact.version);
      // In consumer order, so a run verifies them in the same order every time.
      const chosen = pacts
        .filter(
          (pact) =>
            pact.provider === provider &&
            consumerVersionSelectors.some(
              (s) =>
                (!s.consumer || s.consumer === pact.consumer) &&
                ((s.mainBranch && pact.branch === 'main') ||
                  (s.branch !== undefined && s.branch === pact.branch) ||
                  ((s.deployedOrReleased || s.deployed) && deployed(pact, s.environment))),
            ),
        )
        .sort((a, b) => a.consumer.localeCompare(b.consumer));
      return {
        json: {
          _embedded: {
            pacts: chosen.map((pact) => ({
              shortDescription: pact.branch === 'main' || !deployed(pact) ? `latest from branch ${pact.branch}` : `deployed version ${pact.version}`,
              verificationProperties: { pending: false, notices: [] },
              _links: { self: link(pactPath(pact), { name: `Pact between ${pact.consumer} (${pact.version}) and ${pact.provider}` }) },
            })),
          },
          _links: { self: link(path) },
        },
      };
    }
    // GET /pacts/provider/{p}/consumer/{c}/pact-version/{id}, POST …/verification-results
    if (parts[0] === 'pacts' && parts[3] === 'consumer' && parts[5] === 'pact-version') {
      const pact = pacts.find((p) => p.id === Number(parts[6]));
      if (!pact) return { status: 404, json: {} };
      if (request.method === 'GET' && parts.length === 7) {
        // As the broker serves a pact: each interaction with its `_id`, which a verification result may name.
        const interactions = servedInteractions(pact);
        return {
          json: {
            ...pact.content,
            interactions,
            _links: {
              self: link(pactPath(pact)),
              'pb:provider': link(`/pacticipants/${encodeURIComponent(pact.provider)}`),
              'pb:publish-verification-results': link(`${pactPath(pact)}/verification-results`),
            },
          },
        };
      }
      if (request.method === 'POST' && parts[7] === 'verification-results') {
        results.push({
          consumer: pact.consumer,
          consumerVersion: pact.version,
          provider: pact.provider,
          body: JSON.parse(request.body) as PublishedResult['body'],
        });
        return { status: 201, json: { success: true } };
      }
    }
    if (parts[0] === 'pacticipants' && parts.length === 2 && request.method === 'GET') {
      const name = encodeURIComponent(parts[1]!);
      return {
        json: {
          name: parts[1],
          _links: {
            'pb:version': link(`/pacticipants/${name}/versions/{version}`, { templated: true }),
            'pb:version-tag': link(`/pacticipants/${name}/versions/{version}/tags/{tag}`, { templated: true }),
            'pb:branch-version': link(`/pacticipants/${name}/branches/{branch}/versions/{version}`, { templated: true }),
          },
        },
      };
    }
    if (parts[0] === 'pacticipants' && parts[2] === 'branches' && parts[4] === 'versions' && request.method === 'PUT') {
      branches.push({ pacticipant: parts[1]!, branch: parts[3]!, version: parts[5]! });
      return { json: {} };
    }
    if (parts[0] === 'pacticipants' && parts[2] === 'versions' && parts[4] === 'tags' && request.method === 'PUT') {
      tags.push({ pacticipant: parts[1]!, version: parts[3]!, tag: parts[5]! });
      return { status: 201, json: {} };
    }
    if (parts[0] === 'pacticipants' && parts[2] === 'versions' && parts.length === 4 && request.method === 'GET') {
      const base = `/pacticipants/${encodeURIComponent(parts[1]!)}/versions/${encodeURIComponent(parts[3]!)}`;
      return {
        json: {
          number: parts[3],
          _links: {
            'pb:record-deployment': ENVIRONMENTS.map((e) =>
              link(`${base}/deployed-versions/environment/${e.uuid}`, { name: e.name, title: `Record deployment to ${e.name}` }),
            ),
          },
        },
      };
    }
    if (parts[0] === 'pacticipants' && parts[4] === 'deployed-versions' && request.method === 'POST') {
      const environment = ENVIRONMENTS.find((e) => e.uuid === parts[6])!.name;
      const { applicationInstance } = JSON.parse(request.body || '{}') as { applicationInstance?: string };
      deployments.push({ pacticipant: parts[1]!, version: parts[3]!, environment, ...(applicationInstance ? { applicationInstance } : {}) });
      return { status: 201, json: {} };
    }
    // GET /matrix?q[][pacticipant]=…&q[][version]=…&environment=…: deployable when every named version's pacts have a
    // passing latest result from the provider version deployed to that environment now (any provider version without one).
    if (request.method === 'GET' && path === '/matrix') {
      const names = url.searchParams.getAll('q[][pacticipant]');
      const versions = url.searchParams.getAll('q[][version]');
      const environment = url.searchParams.get('environment');
      const deployedThere = (provider: string, version: string) => !environment || deployedNow(provider, environment).includes(version);
      const rows = names.map((name, i) => {
        const relevant = results.filter(
          (r) => r.consumer === name && r.consumerVersion === versions[i] && deployedThere(r.provider, r.body.providerApplicationVersion),
        );
        return { name, version: versions[i], ok: relevant.length > 0 && relevant.at(-1)!.body.success };
      });
      const deployable = rows.every((row) => row.ok);
      const failing = rows.filter((row) => !row.ok).map((row) => `${row.name} ${row.version}`);
      return {
        json: {
          summary: {
            deployable,
            reason: deployable ? 'stand-in: all verified' : `stand-in: no passing verification for ${failing.join(', ')}`,
            success: rows.length - failing.length,
            failed: failing.length,
            unknown: 0,
          },
          matrix: [],
        },
      };
    }
    return { status: 404, json: { error: `stand-in: no ${request.method} ${path}` } };
  };
  const server = await startScriptedServer(handler, {
    contentType: 'application/hal+json',
    headersOf: (req) => ({ authorization: req.headers.authorization ?? '', 'content-type': req.headers['content-type'] ?? '' }),
    ...(port === undefined ? {} : { port }),
  });
  origin = server.origin;
  const publish = (pact: Omit<PublishedPact, 'id'>) => {
    pacts.push({ ...pact, id: pacts.length + 1 });
    servedInteractions(pacts.at(-1)!);
  };
  return Object.assign(server, { pacts, results, deployments, branches, tags, publish, deployedNow: (p: string, e: string) => deployedNow(p, e) });
}

// `node tests/unit/pact/brokerStandIn.ts`: the stand-in as a process of its own, on a free loopback port, for a bench
// that may not import the tests (bench/lib/brokerProcess.ts). Its first line on stdout is its origin; it stops when
// its stdin closes.
if (import.meta.main) {
  const broker = await startBrokerStandIn();
  console.log(broker.origin);
  process.stdin.resume().once('end', () => void broker.close().then(() => process.exit(0)));
}
