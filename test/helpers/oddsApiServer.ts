import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

const FIXTURES = resolve(__dirname, '../fixtures/theoddsapi');

export type ServerMode = 'ok' | 'fail' | 'hang';

export interface RecordedRequest {
  path: string;
  query: Record<string, string>;
  aborted: boolean;
}

/**
 * A stand-in for The Odds API v4 serving recorded responses of its documented shape, with its
 * key check, quota accounting and headers (x-requests-remaining / used / last). `mode` makes it
 * fail (HTTP 500) or hang (never answer) to exercise the breaker.
 */
export class OddsApiServer {
  mode: ServerMode = 'ok';
  remaining: number;
  used = 0;
  readonly requests: RecordedRequest[] = [];
  private server?: Server;
  url = '';

  constructor(
    readonly apiKey = 'test-key',
    quota = 500,
  ) {
    this.remaining = quota;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }

  private send(res: ServerResponse, status: number, body: unknown, last: number): void {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-requests-remaining': String(this.remaining),
      'x-requests-used': String(this.used),
      'x-requests-last': String(last),
    });
    res.end(JSON.stringify(body));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const u = new URL(req.url!, 'http://x');
    const rec: RecordedRequest = { path: u.pathname, query: Object.fromEntries(u.searchParams), aborted: false };
    this.requests.push(rec);
    req.on('close', () => {
      if (!res.writableEnded) rec.aborted = true;
    });
    if (this.mode === 'hang') return;
    if (this.mode === 'fail') return this.send(res, 500, { message: 'Internal server error' }, 0);
    if (u.searchParams.get('apiKey') !== this.apiKey) return this.send(res, 401, { message: 'API key is not valid or has expired', error_code: 'INVALID_KEY' }, 0);

    let m: RegExpExecArray | null;
    if (u.pathname === '/v4/sports' || u.pathname === '/v4/sports/') return this.send(res, 200, this.fixture('sports.json'), 0);
    let cost = 0;
    let file: string | undefined;
    if ((m = /^\/v4\/sports\/([a-z0-9_]+)\/odds\/?$/.exec(u.pathname))) {
      cost = (u.searchParams.get('markets') ?? 'h2h').split(',').length * (u.searchParams.get('regions') ?? 'us').split(',').length;
      file = `odds-${m[1]}.json`;
    } else if ((m = /^\/v4\/sports\/([a-z0-9_]+)\/scores\/?$/.exec(u.pathname))) {
      cost = u.searchParams.has('daysFrom') ? 2 : 1;
      file = `scores-${m[1]}.json`;
    }
    if (!file) return this.send(res, 404, { message: 'Unknown sport', error_code: 'UNKNOWN_SPORT' }, 0);
    if (this.remaining < cost) return this.send(res, 401, { message: 'Usage quota has been reached.', error_code: 'OUT_OF_USAGE_CREDITS' }, 0);
    this.remaining -= cost;
    this.used += cost;
    let body: unknown = [];
    try {
      body = this.fixture(file);
    } catch {
      // A sport with no recorded games answers an empty list, as the API does.
    }
    this.send(res, 200, body, cost);
  }

  private fixture(name: string): unknown {
    return JSON.parse(readFileSync(resolve(FIXTURES, name), 'utf8'));
  }

  /** Requests that reached the server (what the breaker must prevent while open). */
  count(): number {
    return this.requests.length;
  }
}
