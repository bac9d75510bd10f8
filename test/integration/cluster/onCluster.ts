import { sigkillTree } from '../../helpers/kill';
import { spawnEntry } from '../../helpers/processes';
import type { LocalRedisCluster } from '../../helpers/redisCluster';

/**
 * Runs test files as they are, in a mocha process of their own whose every Redis connection (its
 * own and those of the processes it starts) goes to `cluster`: REDIS_CLUSTER_NODES takes the place
 * of REDIS_URL for the whole configuration, which a process reads once. Resolves with the exit
 * code and the output.
 */
export async function runTestsOnCluster(cluster: LocalRedisCluster, files: readonly string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  const mocha = spawnEntry('node_modules/mocha/bin/mocha.js', { REDIS_CLUSTER_NODES: cluster.nodes }, [
    '--no-config',
    '--require',
    'tsx/cjs',
    '--require',
    'test/setup.ts',
    '--extension',
    'ts',
    '--timeout',
    '20000',
    '--exit',
    ...files,
  ]);
  const timer = setTimeout(() => void sigkillTree(mocha), timeoutMs);
  const { code } = await mocha.exited;
  clearTimeout(timer);
  return { code, output: mocha.output() };
}
