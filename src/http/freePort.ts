import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port the OS says is free now, for a program that must be told its port (Prism, a twin process). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
