import { readFileSync } from 'node:fs';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { assertSupportedNode, NEEDED_NODE, nodeVersionProblem, olderThanNeeded, UnsupportedNodeError } from '../../../src/config/nodeVersion.ts';

test('the Node the bin and the entry points need is package.json engines.node', () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
  expect(manifest.engines.node).toBe(`>=${NEEDED_NODE.replace(/\.0$/, '')}`);
});

test('an older Node is refused by major, minor and patch; the needed one and newer pass', () => {
  expect(['20.20.2', 'v18.19.0', '22.18.0', '22.18.99', '21.99.0'].map(olderThanNeeded)).toEqual([true, true, true, true, true]);
  expect([NEEDED_NODE, '22.19.1', '22.20.0', '24.0.0', 'v26.1.0'].map(olderThanNeeded)).toEqual([false, false, false, false, false]);
});

test('the refusal is one line naming the Node found and where, the Node needed, and the fix', () => {
  const message = nodeVersionProblem('api-contract-harness', '20.20.2', '/usr/bin/node');
  expect(message).toBe(
    `api-contract-harness needs Node ${NEEDED_NODE} or newer; this is Node 20.20.2 (/usr/bin/node). ` +
      'Pin it in your project (npm install --save-dev node@24; npx then runs the pinned Node), or give CI a newer one (actions/setup-node with node-version: 24).',
  );
  expect(message).not.toContain('\n');
  expect(nodeVersionProblem('api-contract-harness', '24.21.0', '/x/node'), 'a new enough Node is not refused').toBeUndefined();
});

test('on this Node the entry points load, and each names what its module exports', async () => {
  expect(() => assertSupportedNode('api-contract-harness/twins')).not.toThrow();
  expect(new UnsupportedNodeError('x')).toBeInstanceOf(Error);
  const runtimeNames = (module: object) => Object.keys(module).sort();
  // The entries re-export by name: a name added to the module and not to its entry would be missing for a team.
  expect(runtimeNames(await import('../../../src/twins/entry.ts'))).toEqual(runtimeNames(await import('../../../src/twins/startTwins.ts')));
  expect(runtimeNames(await import('../../../contracts/verification/statesEntry.ts'))).toEqual(
    runtimeNames(await import('../../../contracts/verification/teamStates.ts')),
  );
});
