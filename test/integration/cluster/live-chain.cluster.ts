import { expect } from 'chai';
import { commandsProcessed, redisClusterForSuite } from '../../helpers/redisCluster';
import { runTestsOnCluster } from './onCluster';

/**
 * `npm run test:cluster`: the live chain (test/integration/pipeline/live-chain.test.ts, unchanged:
 * the five processes of the Procfile at demo speed, stopped and started again) on a local Redis
 * Cluster of three primaries, every process and the test itself connected by REDIS_CLUSTER_NODES.
 * Its own tier (named .cluster.ts, outside npm test's globs): the chain takes minutes, and npm test
 * runs it once already on the one Redis. The metering's exactness on the cluster is in npm test
 * (metering-on-cluster.test.ts).
 */
describe('Redis Cluster: the live chain on 3 primaries', function () {
  this.timeout(20 * 60_000);
  const started = redisClusterForSuite(3);

  it('happy: test/integration/pipeline/live-chain.test.ts passes with REDIS_CLUSTER_NODES set, its load on every primary', async () => {
    const c = started();
    const before = c.ports.map((p) => commandsProcessed([p]));
    const { code, output } = await runTestsOnCluster(c, ['test/integration/pipeline/live-chain.test.ts'], 18 * 60_000);
    console.log(
      output
        .split('\n')
        .filter((l) => /✔|passing|failing|pending|first settled/.test(l))
        .join('\n'),
    );
    expect(code, output).to.equal(0);
    expect(output).not.to.match(/\d+ (failing|pending)/);
    // The queues, the metering, the feed and the caches are under different tags: every primary served the chain.
    const served = c.ports.map((p, i) => commandsProcessed([p]) - before[i]);
    console.log(`      commands per primary: ${served.join(', ')}`);
    for (const n of served) expect(n).to.be.greaterThan(1000);
  });
});
