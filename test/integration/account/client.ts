import { randomBytes } from 'node:crypto';
import { processContext } from '../../../shared/app/processContext';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../api/app';
import { clearAddressFailures } from '../../../shared/app/accounts/throttle';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { serve, type TestServer } from '../../helpers/api';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';
import { sigkillTree } from '../../helpers/kill';

/** What the account tests send and read back: real HTTP, a cookie kept like a browser keeps it. */

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
  ms: number;
}

export const PASSWORD = 'correct-kettle-orbit-42';
export const uniqueEmail = (tag = 'dev') => `${tag}.${randomBytes(5).toString('hex')}@example.com`;

/** One browser: its session cookie and the CSRF token its page holds. */
export class Browser {
  cookie?: string;
  csrf?: string;

  constructor(readonly baseUrl: string) {}

  async send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const h: Record<string, string> = { ...headers };
    if (this.cookie) h.Cookie = this.cookie;
    if (this.csrf && method !== 'GET' && !('X-CSRF-Token' in h)) h['X-CSRF-Token'] = this.csrf;
    if (body !== undefined && !('Content-Type' in h)) h['Content-Type'] = 'application/json';
    const started = performance.now();
    const res = await fetch(this.baseUrl + path, { method, headers: h, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    const ms = performance.now() - started;
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const value = /^odds_session=([^;]*)/.exec(setCookie)?.[1];
      this.cookie = value ? `odds_session=${value}` : undefined;
    }
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    if (parsed && typeof parsed === 'object' && typeof (parsed as { csrfToken?: unknown }).csrfToken === 'string') this.csrf = (parsed as { csrfToken: string }).csrfToken;
    return { status: res.status, body: parsed, headers: res.headers, ms };
  }

  signup(email = uniqueEmail(), password = PASSWORD) {
    return this.send('POST', '/v2/account/signup', { email, password });
  }

  login(email: string, password = PASSWORD) {
    return this.send('POST', '/v2/account/login', { email, password });
  }

  async newKey(name = 'my key', mode: 'live' | 'test' = 'live'): Promise<{ id: string; key: string }> {
    const r = await this.send('POST', '/v2/account/keys', { name, mode });
    if (r.status !== 201) throw new Error(`key not created: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }
}

/** The production app in this process, on a free port. */
export async function startAccountApi(): Promise<TestServer> {
  await connectMongo();
  return serve(createApp());
}

/** Every test file's logins come from 127.0.0.1: forget its failures so one file's throttle tests do not refuse another's logins. */
export const forgetLocalFailures = () => Promise.all(['127.0.0.1', '::ffff:127.0.0.1', '::1'].map((address) => clearAddressFailures(processContext(), address)));

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export interface WebProcess {
  url: string;
  process: Spawned;
  stop(): Promise<void>;
}

/** workers/web.ts as its own OS process (as the Procfile runs it), answering on a free port. */
export async function startWebProcess(env: Record<string, string> = {}): Promise<WebProcess> {
  const port = await freePort();
  const p = spawnEntry('workers/web.ts', { PORT: String(port), HOST: '127.0.0.1', ...env });
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    `the web process on ${port}`,
    async () => {
      if (p.child.exitCode !== null) throw new Error(`web process exited: ${p.output()}`);
      return fetch(`${url}/v2/account/packages`)
        .then((r) => r.status === 200)
        .catch(() => false);
    },
    60000,
    250,
  );
  return { url, process: p, stop: () => sigkillTree(p) };
}
