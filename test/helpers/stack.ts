import { createServer, type AddressInfo } from 'node:net';
import { getConfig } from '../../shared/platform/config';
import { sigkillTree } from './kill';
import { spawnEntry, type Spawned } from './processes';

export const STACK_PROCESSES = ['web', 'ingest', 'ai', 'settlement', 'scheduler'] as const;
export type StackProcess = (typeof STACK_PROCESSES)[number];

export async function freePort(): Promise<number> {
  return new Promise((res) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => res(port));
    });
  });
}

/**
 * The whole pipeline as the Procfile runs it: every process its own OS process, on this test
 * file's database and Redis prefix (read from the config at start), with the given settings.
 */
export class Stack {
  readonly procs = new Map<StackProcess, Spawned>();
  readonly logs: string[] = [];
  constructor(
    readonly port: number,
    private env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  start(names: readonly StackProcess[] = STACK_PROCESSES, env: Record<string, string> = {}): void {
    this.env = { ...this.env, ...env };
    const cfg = getConfig();
    for (const name of names) {
      this.procs.set(
        name,
        spawnEntry(`workers/${name}.ts`, { MONGODB_DB: cfg.MONGODB_DB, REDIS_PREFIX: cfg.REDIS_PREFIX, PORT: String(this.port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...this.env }),
      );
    }
  }

  /** SIGTERM, as an operator stops a process: it finishes or releases its jobs and locks. */
  async stop(names: readonly StackProcess[] = STACK_PROCESSES): Promise<void> {
    await Promise.all(
      names.map(async (n) => {
        const p = this.procs.get(n);
        if (!p) return;
        p.child.kill('SIGTERM');
        const timer = setTimeout(() => void sigkillTree(p), 20_000);
        await p.exited;
        clearTimeout(timer);
        this.logs.push(p.output());
        this.procs.delete(n);
      }),
    );
  }

  async kill(names: readonly StackProcess[] = STACK_PROCESSES): Promise<void> {
    await Promise.all(
      names.map(async (n) => {
        const p = this.procs.get(n);
        if (!p) return;
        await sigkillTree(p);
        this.logs.push(p.output());
        this.procs.delete(n);
      }),
    );
  }

  output(): string {
    return [...this.logs, ...[...this.procs.values()].map((p) => p.output())].join('\n');
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
    const res = await fetch(this.url + path, { headers });
    return { status: res.status, body: await res.json().catch(() => null) };
  }
}
