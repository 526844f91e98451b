/**
 * The Pact Broker stand-in the pact tests use (tests/unit/pact/brokerStandIn.ts), as a process of its own: a bench
 * may not import the tests (LAYERS in eslint.config.js). Consumers publish to it as Pact's clients do
 * (POST /contracts/publish); pact:verify --broker reads from it as from a real broker.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const ENTRY = 'tests/unit/pact/brokerStandIn.ts';

export interface BrokerProcess {
  readonly origin: string;
  /** One consumer version's pact, on its branch. */
  publish(pact: { consumer: string; provider: string; version: string; branch: string; content: unknown }): Promise<void>;
  close(): Promise<void>;
}

export async function startBrokerProcess(root: string): Promise<BrokerProcess> {
  const child = spawn(process.execPath, [ENTRY], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const [origin] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return {
    origin,
    publish: async ({ consumer, provider, version, branch, content }) => {
      const answer = await fetch(`${origin}/contracts/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          pacticipantName: consumer,
          pacticipantVersionNumber: version,
          branch,
          contracts: [
            {
              consumerName: consumer,
              providerName: provider,
              specification: 'pact',
              contentType: 'application/json',
              content: Buffer.from(JSON.stringify(content)).toString('base64'),
            },
          ],
        }),
      });
      await answer.body?.cancel();
      if (!answer.ok) throw new Error(`the broker stand-in refused ${consumer}'s pact: ${answer.status}`);
    },
    close: async () => {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
}
