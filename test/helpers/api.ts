import type { Server } from 'node:http';
import { processContext } from '../../shared/app/processContext';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApp } from '../../api/app';
import { listen } from '../../api/server';
import { addCredits, createAccount, createKey } from '../../shared/app/billing/accounts';
import { setEnvForChildren } from '../../shared/platform/config';
import { connectMongo } from '../../shared/platform/db/mongo';

export interface TestServer {
  url: string;
  /** The funded live key sent by default (startApi), absent for a bare serve(). */
  key?: string;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/** Serves an app over real HTTP on a free port, with the production server's handling of unparsable requests. */
export async function serve(app: Express): Promise<TestServer> {
  const server: Server = await listen(app, 0, '127.0.0.1');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async get(path, headers = {}) {
      const res = await fetch(url + path, { headers });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // non-JSON (dashboard HTML)
      }
      return { status: res.status, body, headers: res.headers };
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * The service's own API, connected to the test database, called like a paying client: with a
 * live key of a funded account (2,000,000 credits) on every request unless the test passes its
 * own Authorization header. The per-key rate limit is lifted: these are functional tests of the
 * endpoints, and metering has its own tests of limits, charges and keys.
 */
export async function startApi(): Promise<TestServer> {
  await connectMongo();
  setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '1000000' });
  const server = await serve(createApp());
  const account = await createAccount(processContext(), { name: 'functional tests' });
  await addCredits(processContext(), { accountId: String(account.id), packageCredits: 2000000 });
  const { key } = await createKey(processContext(), { accountId: String(account.id), name: 'functional tests' });
  return { ...server, key, get: (path, headers = {}) => server.get(path, { Authorization: `Bearer ${key}`, ...headers }) };
}
