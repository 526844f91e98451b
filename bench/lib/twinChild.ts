/**
 * Child entry: `node bench/lib/twinChild.ts store|media` starts one twin on a
 * free loopback port with the real clock and reports its URL over IPC. Asked
 * `measure-retained` (the load bench, between phases of load), it collects all garbage and answers with what is left:
 * that needs `--expose-gc`, which the bench passes. Exits when the bench goes
 * away (IPC closes) or on SIGTERM.
 */
import { startMediaTwin } from '../../src/twins/media/server.ts';
import { startStoreTwin } from '../../src/twins/store/server.ts';
import { tellBench, type BenchRequest } from './childMessages.ts';

const kind = process.argv[2];
if (kind !== 'store' && kind !== 'media') {
  console.error(`usage: node bench/lib/twinChild.ts store|media  (got "${kind ?? ''}")`);
  process.exit(2);
}

const twin = kind === 'store' ? await startStoreTwin({ clock: 'real' }) : await startMediaTwin({ clock: 'real' });
tellBench({ type: 'ready', url: twin.url });

process.on('message', (request: BenchRequest) => {
  if (request.type !== 'measure-retained') return;
  const gc = globalThis.gc;
  if (!gc) {
    console.error('twinChild: measure-retained needs --expose-gc (forkServer(..., { exposeGc: true }))');
    process.exit(2);
  }
  // Twice: the first collection can leave objects only a finaliser freed.
  gc();
  gc();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  tellBench({ type: 'retained', rss, heapUsed, external, arrayBuffers });
});

const stop = (): void => void twin.close().finally(() => process.exit(0));
process.once('disconnect', stop);
process.once('SIGTERM', stop);
