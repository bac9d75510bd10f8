import { expect } from 'chai';
import { createRedis, key } from '../../shared/platform/db/redis';
import { LeaderLock } from '../../shared/platform/locks';
import { waitUntil } from '../helpers/processes';

describe('scheduler leadership (one scheduler schedules)', () => {
  it('happy: of two contenders exactly one leads, and the other takes over when it stops', async function () {
    this.timeout(15000);
    const lockKey = key('test-leader', String(Date.now()));
    const a = new LeaderLock(createRedis('leader-a'), lockKey, 1500);
    const b = new LeaderLock(createRedis('leader-b'), lockKey, 1500);
    a.start();
    await waitUntil('a to lead', () => a.isLeader);
    b.start();
    await new Promise((r) => setTimeout(r, 1200));
    expect([a.isLeader, b.isLeader]).to.deep.equal([true, false]);
    await a.stop();
    await waitUntil('b to take over', () => b.isLeader, 5000);
    expect(a.isLeader).to.equal(false);
    await b.stop();
  });
});
