/**
 * Child entry: `node bench/lib/replayChild.ts`, the bare Node HTTP server of
 * the throughput bench. It takes captured twin answers over IPC and answers
 * each path with the same status, headers and body bytes, doing nothing else:
 * the most a Node HTTP server can serve of those bytes on this machine.
 */
import { createServer } from '../../src/http/nodeHttp.ts';
import type { AddressInfo } from 'node:net';
import type { CapturedAnswer } from './capturedAnswer.ts';
import { tellBench } from './childMessages.ts';

process.once('message', (answers: CapturedAnswer[]) => {
  const byPath = new Map(answers.map((answer) => [answer.path, { ...answer, body: Buffer.from(answer.bodyBase64, 'base64') }]));
  const server = createServer((req, res) => {
    const answer = byPath.get(req.url ?? '');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, [...answer.headers]);
    res.end(answer.body);
  });
  server.listen(0, '127.0.0.1', () => {
    tellBench({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
  process.once('disconnect', () => process.exit(0));
});
