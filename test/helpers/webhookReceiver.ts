import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  type: string;
  at: number;
}

/**
 * A customer's webhook endpoint: a local HTTP server that records every POST and answers what the
 * test says (`answer`: a status, or 'hang' to hold the request open until the server closes).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: (r: Received) => number | 'hang' = () => 200;
  private server?: Server;
  private readonly held = new Set<ServerResponse>();

  async start(): Promise<string> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        const header = (name: string) => String(req.headers[name] ?? '');
        let type = '';
        try {
          const parsed: unknown = JSON.parse(body);
          if (typeof parsed === 'object' && parsed !== null && 'type' in parsed && typeof parsed.type === 'string') type = parsed.type;
        } catch {
          // recorded as it came
        }
        const r: Received = { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature'), body, type, at: Date.now() };
        this.received.push(r);
        const status = this.answer(r);
        if (status === 'hang') return void this.held.add(res);
        res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    this.server = server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}/hooks`;
  }

  /** Whether `r` verifies with the secret (the Standard Webhooks package, as a customer checks it). */
  static verifies(secret: string, r: Received): boolean {
    try {
      new Webhook(secret).verify(r.body, { 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature });
      return true;
    } catch {
      return false;
    }
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.type === type);
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.held.clear();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
