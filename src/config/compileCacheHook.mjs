// Loaded before a checkout's command (`node --import ./src/config/compileCacheHook.mjs scripts/<command>.ts`): V8's
// compile cache is on before the command's own modules load, where a call in the command itself comes after them
// (imports are evaluated first) and so serves only the processes it starts. Plain JavaScript: a TypeScript hook is
// itself stripped of its types first, and loading the stripper (Node's amaro, WebAssembly) costs a process about
// 100 ms of CPU, which the cache spares every later module. The folder is compileCache.ts's.
import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

process.env.NODE_COMPILE_CACHE ||= fileURLToPath(new URL('../../node_modules/.cache/node-compile-cache', import.meta.url));
enableCompileCache(process.env.NODE_COMPILE_CACHE);
