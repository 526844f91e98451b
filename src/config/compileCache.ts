/**
 * V8's compile cache for every Node process of a run: the gate starts some
 * forty (Playwright's runners and workers, the twins, the sub-runs of the unit
 * tests), and each compiled Playwright, undici, ajv and the rest afresh: about
 * half of a worker's start. The variable is inherited by every child; the
 * cache lives with the packages it caches, so `npm ci` starts it afresh.
 */
import { enableCompileCache, flushCompileCache } from 'node:module';
import { resolve } from 'node:path';
import { COMPILED } from './harnessRoot.ts';

/** Where the cache lives: compileCacheHook.mjs, which turns it on before a command's first module, names the same folder. */
const CACHE_DIR = resolve(import.meta.dirname, '../../node_modules/.cache/node-compile-cache');

export function useCompileCache(): void {
  // The installed package writes nothing inside node_modules.
  if (COMPILED) return;
  process.env.NODE_COMPILE_CACHE ||= CACHE_DIR;
  enableCompileCache(process.env.NODE_COMPILE_CACHE);
}

/**
 * Writes what this process has compiled to the cache now, not at its exit: the processes it starts next load the
 * modules they share with it from there, even on a first run (a fresh CI checkout's cache is empty).
 */
export function shareCompileCache(): void {
  if (!COMPILED) flushCompileCache();
}
