import { expect } from 'chai';
import { commandsProcessed, redisClusterForSuite } from '../../helpers/redisCluster';
import { runTestsOnCluster } from './onCluster';

/**
 * The metering's exactness on a Redis Cluster (REDIS_CLUSTER_NODES): the 2,000-concurrent-requests
 * test file, unchanged, on a local cluster of three primaries. Its key check, debit and settle are
 * Lua scripts over several keys, which the cluster runs only when their keys share a hash slot.
 * The live chain on the cluster is `npm run test:cluster` (test/integration/cluster/live-chain.cluster.ts).
 */
describe('Redis Cluster: metering exact under concurrency, on 3 primaries', function () {
  this.timeout(300_000);
  const started = redisClusterForSuite(3);

  it('happy: test/integration/metering/concurrency.test.ts passes with REDIS_CLUSTER_NODES set', async () => {
    const c = started();
    const before = commandsProcessed(c.ports);
    const { code, output } = await runTestsOnCluster(c, ['test/integration/metering/concurrency.test.ts'], 280_000);
    expect(code, output).to.equal(0);
    // The cluster served the run: its 6,000 requests' key checks and debits at least.
    expect(commandsProcessed(c.ports) - before).to.be.greaterThan(6000);
    expect(output).to.match(/\d+ passing/);
    expect(output).not.to.match(/\d+ (failing|pending)/);
  });
});
