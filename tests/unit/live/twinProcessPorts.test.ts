/**
 * A twin process is never started on a port something already answers on: a twin left running by an earlier run
 * would answer the health check in the new one's place, and a break job (npm run breaks) would run against the
 * state the jobs before it wrote.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { freePort } from '../../../src/http/freePort.ts';
import { startTwinProcess } from '../../../scripts/lib/twinProcess.ts';

test('a port another process answers on is refused before anything starts, naming it', async () => {
  const left = createServer((_req, res) => res.end('{"status":"ok"}'));
  await new Promise<void>((listening) => left.listen(0, '127.0.0.1', listening));
  const taken = (left.address() as AddressInfo).port;
  try {
    await expect(startTwinProcess(taken, await freePort())).rejects.toThrow(`port ${taken} is taken: a process answers there already`);
  } finally {
    left.close();
  }
});
