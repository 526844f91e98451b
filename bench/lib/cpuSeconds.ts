/**
 * CPU seconds as Linux's /proc counts them, read before and after what a bench measures: a wall time measured
 * beside other work, or on a VM whose CPUs were shared, says little without them. Undefined off Linux.
 */
import { readFileSync } from 'node:fs';

/** Linux's /proc counts in ticks of 1/100 s (USER_HZ), whatever the kernel's own tick. */
const TICKS_PER_SECOND = 100;

/** CPU seconds of this process's children that have ended (user + system), each with the children it waited for. */
export function childrenCpuSeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After the command: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds since boot: the whole machine busy (every process: user, nice, system, interrupts),
 * and the time the hypervisor ran other guests on this machine's CPUs (steal).
 */
export function machineSeconds(): { busy: number; steal: number } | undefined {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
    return { busy: (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND, steal: steal! / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}
