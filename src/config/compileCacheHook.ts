/**
 * Loaded before a checkout's command (`node --import ./src/config/compileCacheHook.ts scripts/<command>.ts`): V8's
 * compile cache is on before the command's own modules load, where a call in the command itself comes after them
 * (imports are evaluated first) and so serves only the processes it starts.
 */
import { useCompileCache } from './compileCache.ts';

useCompileCache();
