/**
 * src/http/nodeHttp.ts gives node:http's servers and requests without loading Node's own copy of undici, which an ES
 * import of node:http loads (its WebSocket getters), so the global dispatcher stays the undici the harness depends on.
 * Shown in a fresh process, as what a process has loaded cannot be unloaded: first through nodeHttp.ts, then, for
 * the reason it exists, with an ES import of node:http itself.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

const SCRIPT = `
const loaded = () => ({
  nodeUndici: process.moduleLoadList.some((m) => m.includes('deps/undici')),
  dispatcher: globalThis[Symbol.for('undici.globalDispatcher.1')]?.constructor.name ?? 'none',
});
const { createServer, request } = await import('./src/http/nodeHttp.ts');
await import('undici');
const through = { ...loaded(), createServer: typeof createServer, request: typeof request };
await import('node:http');
console.log(JSON.stringify({ through, direct: loaded() }));`;

test("nodeHttp.ts gives createServer and request without Node's undici, and undici's own Agent stays the global dispatcher", () => {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: ROOT, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  const { through, direct } = JSON.parse(result.stdout) as Record<'through' | 'direct', { nodeUndici: boolean; dispatcher: string }>;
  // undici 8 wraps its Agent for the dispatchers of undici 7 (Node's) that share the symbol.
  expect(through).toEqual({ nodeUndici: false, dispatcher: 'Dispatcher1Wrapper', createServer: 'function', request: 'function' });
  // The reason nodeHttp.ts exists: should a Node release stop loading its undici here, this goes red, and nodeHttp.ts can go.
  expect(direct.nodeUndici).toBe(true);
});
