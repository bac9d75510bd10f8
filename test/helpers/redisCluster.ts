import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer } from '../../scripts/services';
import { waitUntil } from './processes';

export interface LocalRedisCluster {
  /** The seed nodes as REDIS_CLUSTER_NODES takes them: `127.0.0.1:a,127.0.0.1:b,...`. */
  nodes: string;
  ports: number[];
  stop(): Promise<void>;
}

const portFree = (port: number) =>
  new Promise<boolean>((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
  });

/**
 * A port whose cluster bus port (port + 10000) is free too: the bus must fit under 65536, which
 * the kernel's ephemeral ports (from 32768) do not leave room for, so it is picked from 20000..45000.
 */
async function clusterPort(taken: Set<number>): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = 20000 + Math.floor(Math.random() * 25000);
    if (taken.has(port) || taken.has(port + 10000)) continue;
    if ((await portFree(port)) && (await portFree(port + 10000))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

const cli = (port: number, ...args: string[]) => spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 30_000 });

/**
 * A local Redis Cluster of `primaries` primaries and no replicas, each a redis-server with
 * `--cluster-enabled yes` in a temporary folder, joined by `redis-cli --cluster create`; resolved
 * once every node reports cluster_state:ok. Never touches another Redis. `stop()` ends its
 * servers and removes the folder.
 */
export async function startRedisCluster(primaries = 3): Promise<LocalRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((res) => {
            if (c.exitCode !== null || c.signalCode !== null) return res();
            c.once('exit', () => res());
            c.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const taken = new Set<number>();
    const ports: number[] = [];
    for (let i = 0; i < primaries; i++) {
      const port = await clusterPort(taken);
      taken.add(port).add(port + 10000);
      const nodeDir = join(dir, String(port));
      const server = await startRedisServer(nodeDir, {
        port,
        logDir: dir,
        args: ['--cluster-enabled', 'yes', '--cluster-config-file', join(nodeDir, 'nodes.conf'), '--cluster-node-timeout', '5000', '--protected-mode', 'no'],
      });
      children.push(server.child);
      ports.push(port);
    }
    const create = cli(ports[0], '--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes');
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    await waitUntil('the cluster ready on every node', () => ports.every((p) => /cluster_state:ok/.test(cli(p, 'cluster', 'info').stdout)), 30_000, 200);
    return { nodes: ports.map((p) => `127.0.0.1:${p}`).join(','), ports, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Commands the nodes on `ports` have processed since they started, summed (INFO stats). */
export function commandsProcessed(ports: readonly number[]): number {
  return ports.reduce((sum, p) => sum + Number(/total_commands_processed:(\d+)/.exec(cli(p, 'info', 'stats').stdout)?.[1] ?? 0), 0);
}

/**
 * A local cluster for the suite it is called in: started before its tests, stopped after them.
 * Returns the running cluster (throws when it did not start).
 */
export function redisClusterForSuite(primaries = 3): () => LocalRedisCluster {
  let cluster: LocalRedisCluster | undefined;
  before(async () => {
    cluster = await startRedisCluster(primaries);
  });
  after(async () => {
    await cluster?.stop();
  });
  return () => {
    if (!cluster) throw new Error('the cluster did not start');
    return cluster;
  };
}
