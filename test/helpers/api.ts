import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApp } from '../../api/app';
import { connectMongo } from '../../shared/db/mongo';

export interface TestServer {
  url: string;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/** Serves an app over real HTTP on a free port. */
export async function serve(app: Express): Promise<TestServer> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
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

/** The service's own API, connected to the test database. */
export async function startApi(): Promise<TestServer> {
  await connectMongo();
  return serve(createApp());
}
