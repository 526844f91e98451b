/**
 * The team's webhook handler: the store POSTs `{"store_id","event","id"}` signed with X-Linkedstore-HMAC-SHA256
 * (lower-case hex HMAC-SHA256 of the raw body, keyed with the app secret). It answers 401 to a delivery whose
 * signature does not match, 400 to a body that is not a delivery, 503 when its own work fails (so the store retries),
 * and 200 otherwise. A delivery names what changed, not how, and the store may send it more than once: the handler
 * records the resource to sync in a set, so the same delivery twice has the effect of one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  readonly store_id: number;
  readonly event: string;
  readonly id: number;
}

export interface HandlerOptions {
  readonly secret: string;
  /** The team's work for one delivery (re-reading the resource, say); a throw answers 503 and the store retries. */
  readonly process?: (delivery: Delivery) => Promise<void> | void;
  /** False only to show that `webhooks check` catches a handler that skips the signature. */
  readonly verifySignatures?: boolean;
}

/** Whether `signature` is the HMAC-SHA256 of the raw body under `secret`, compared in constant time. */
export function validSignature(rawBody: Buffer, signature: string | undefined, secret: string): boolean {
  if (signature === undefined || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

function isDelivery(value: unknown): value is Delivery {
  const d = value as Partial<Delivery> | null;
  return typeof d === 'object' && d !== null && Number.isInteger(d.store_id) && typeof d.event === 'string' && Number.isInteger(d.id);
}

async function rawBodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class WebhookHandler {
  /** `store:event:id` of every delivery handled: what the team's sync reads. */
  readonly toSync = new Set<string>();
  /** How many deliveries arrived in all, duplicates included. */
  received = 0;
  readonly #options: HandlerOptions;

  constructor(options: HandlerOptions) {
    this.#options = options;
  }

  /** One delivery, once its signature is checked: idempotent, so a retried or repeated delivery changes nothing more. */
  async handle(delivery: Delivery): Promise<void> {
    this.received += 1;
    await this.#options.process?.(delivery);
    this.toSync.add(`${delivery.store_id}:${delivery.event}:${delivery.id}`);
  }

  /** Serves the handler on 127.0.0.1 (a free port unless given) at /webhooks. */
  async listen(port = 0): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer(async (req, res) => {
      const rawBody = await rawBodyOf(req);
      const signature = req.headers['x-linkedstore-hmac-sha256'];
      if (this.#options.verifySignatures !== false && !validSignature(rawBody, typeof signature === 'string' ? signature : undefined, this.#options.secret)) {
        res.writeHead(401).end('bad signature');
        return;
      }
      let delivery: unknown;
      try {
        delivery = JSON.parse(rawBody.toString('utf8'));
      } catch {
        res.writeHead(400).end('not JSON');
        return;
      }
      if (!isDelivery(delivery)) {
        res.writeHead(400).end('not a delivery');
        return;
      }
      try {
        await this.handle(delivery);
        res.writeHead(200).end('ok');
      } catch {
        res.writeHead(503).end('try again later');
      }
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
      close: () => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }
}
