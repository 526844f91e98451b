// Loaded into every Node process of a measured gate (NODE_OPTIONS=--import, by bench/gateTime.ts): at exit,
// each process writes one line of what it was and the CPU it used, so the bench can say which run and
// which kind of process the gate's CPU went to, and how many processes it started. Plain JavaScript, so
// any Node the gate starts can load it.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line no-restricted-syntax -- plain JavaScript in every process: src/config's readers are TypeScript
const dir = process.env.GATE_PROCESS_LEDGER;
if (dir) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    const line = {
      pid: process.pid,
      ppid: process.ppid,
      cpu: (user + system) / 1e6,
      // eslint-disable-next-line no-restricted-syntax -- as above
      run: process.env.HARNESS_RUN_NAME ?? '',
      argv: process.argv.slice(1, 2).join(' '),
    };
    try {
      appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
    } catch {
      // The ledger is a measurement; a process that cannot write its line still exits as it would.
    }
  });
}
