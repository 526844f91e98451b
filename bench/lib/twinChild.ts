/**
 * Child entry: `node bench/lib/twinChild.ts store|media` starts one twin on a
 * free loopback port with the real clock, reports its URL over IPC, then its
 * memory every second. Nothing is forced (no GC calls): the figures are what
 * the twin holds. Exits when the bench goes away (IPC closes) or on SIGTERM.
 */
import { startMediaTwin } from '../../src/twins/media/server.ts';
import { startStoreTwin } from '../../src/twins/store/server.ts';
import { tellBench } from './childMessages.ts';

const MEMORY_EVERY_MS = 1000;

const kind = process.argv[2];
if (kind !== 'store' && kind !== 'media') {
  console.error(`usage: node bench/lib/twinChild.ts store|media  (got "${kind ?? ''}")`);
  process.exit(2);
}

const twin = kind === 'store' ? await startStoreTwin({ clock: 'real' }) : await startMediaTwin({ clock: 'real' });
tellBench({ type: 'ready', url: twin.url });

const reportMemory = (): void => {
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  tellBench({ type: 'memory', rss, heapUsed, heapTotal });
};
reportMemory();
setInterval(reportMemory, MEMORY_EVERY_MS).unref();

const stop = (): void => void twin.close().finally(() => process.exit(0));
process.once('disconnect', stop);
process.once('SIGTERM', stop);
