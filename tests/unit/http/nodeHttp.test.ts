/**
 * src/http/nodeHttp.ts gives node:http's servers and requests without loading Node's own copy of undici, which an ES
 * import of node:http loads (its WebSocket getters), so the global dispatcher stays the undici the harness depends on.
 * Each is shown in a fresh process: what a process has loaded cannot be unloaded.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

/** What a fresh process loaded after `imports`: whether Node's undici, and whose Agent is the global dispatcher. */
function afterImporting(imports: string): { nodeUndici: boolean; dispatcher: string } {
  const script = `${imports}
const dispatcher = globalThis[Symbol.for('undici.globalDispatcher.1')];
console.log(JSON.stringify({ nodeUndici: process.moduleLoadList.some((m) => m.includes('deps/undici')), dispatcher: dispatcher?.constructor.name ?? 'none' }));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { nodeUndici: boolean; dispatcher: string };
}

// The reason nodeHttp.ts exists: should a Node release stop loading it, this goes red, and nodeHttp.ts can go.
test("an ES import of node:http loads Node's own undici", () => {
  expect(afterImporting("import { createServer } from 'node:http'; void createServer;").nodeUndici).toBe(true);
});

test("nodeHttp.ts gives createServer and request without Node's undici, and undici's own Agent stays the global dispatcher", () => {
  const loaded = afterImporting("import { createServer, request } from './src/http/nodeHttp.ts'; import 'undici'; void createServer; void request;");
  expect(loaded.nodeUndici).toBe(false);
  // undici 8 wraps its Agent for the dispatchers of undici 7 (Node's) that share the symbol.
  expect(loaded.dispatcher).toBe('Dispatcher1Wrapper');
});
