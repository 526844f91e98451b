/**
 * One answer of a twin, captured byte for byte so the bare server
 * (replayChild.ts) can send the same status, headers and body.
 */
import { request } from '../../src/http/nodeHttp.ts';

export interface CapturedAnswer {
  /** Path and query the answer belongs to. */
  readonly path: string;
  readonly status: number;
  /** Raw header names and values, alternating, as the twin wrote them. */
  readonly headers: readonly string[];
  readonly bodyBase64: string;
}

// Node writes these itself on every answer (connection management and the date).
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** GETs `origin + path` with `headers` and keeps the answer as sent. */
export function captureAnswer(origin: string, path: string, headers: Readonly<Record<string, string>>): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const kept: string[] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          if (!WRITTEN_BY_NODE.has(name.toLowerCase())) kept.push(name, res.rawHeaders[i + 1]!);
        }
        resolve({ path, status: res.statusCode ?? 0, headers: kept, bodyBase64: Buffer.concat(chunks).toString('base64') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
