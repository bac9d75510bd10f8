import { expect } from 'chai';
import { enqueue, queueFor } from '../../shared/platform/queues/client';
import { settlementQueue } from '../../jobs/settlement';
import { connectMongo } from '../../shared/platform/db/mongo';
import { insertSeedDocuments } from '../../shared/platform/db/repositories/fixtures';
import { spawnEntry, waitUntil, type Spawned } from '../helpers/processes';

describe('jobs through real Redis between processes', () => {
  let worker: Spawned | undefined;
  before(connectMongo);
  afterEach(async () => {
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('happy: a sweep enqueued here is run by the settlement worker process', async function () {
    this.timeout(40000);
    const eventId = '900001';
    await insertSeedDocuments('events', [
      {
        _id: eventId,
        sportId: 1,
        competitionId: 1,
        regionId: 1,
        homeTeam: { id: 1, name: { en: 'Home FC' } },
        awayTeam: { id: 2, name: { en: 'Away FC' } },
        competition: { id: 1, name: { en: 'League' } },
        region: { id: 1, name: { en: 'England' } },
        startDateTime: new Date(Date.now() - 3 * 3600_000),
        startedAt: new Date(Date.now() - 3 * 3600_000),
        status: 'completed',
        dataSource: 'simulated',
      },
    ]);
    await insertSeedDocuments('recommendations', [
      {
        _id: `rec-${eventId}`,
        eventId,
        marketId: `${eventId}-SOCCER_MATCH_RESULT`,
        betItemId: `${eventId}-SOCCER_MATCH_RESULT-1`,
        betTypeSysname: 'SOCCER_MATCH_RESULT',
        code: '1',
        sportId: 1,
        outcome: 'Home',
        bookmaker: 'simulated',
        odds: 2.1,
        probability: 0.5,
        fairOdds: 2,
        confidence: 'Medium',
        edgePercentage: 5,
        kellyFraction: 0.01,
        eventStartAt: new Date(Date.now() - 3 * 3600_000),
      },
    ]);

    worker = spawnEntry('workers/settlement.ts');
    const jobId = await enqueue(settlementQueue, 'sweep', { window: `test-${Date.now()}` });
    const queue = queueFor(settlementQueue);
    await waitUntil('the sweep to complete', async () => (await queue.getJobState(jobId)) === 'completed', 30000);
    const job = await queue.getJob(jobId);
    expect(job!.returnvalue).to.include({ enqueued: 1 });
    // The worker process found the unsettled bet and enqueued its settlement under the derived id.
    expect(await queue.getJob(`settle-${eventId}-v0`)).to.not.equal(undefined);
  });

  it('happy: a duplicate enqueue of the same subject collapses into one job', async () => {
    const window = `dup-${Date.now()}`;
    const a = await enqueue(settlementQueue, 'sweep', { window });
    const b = await enqueue(settlementQueue, 'sweep', { window });
    expect(a).to.equal(b);
    const jobs = await queueFor(settlementQueue).getJobs(['waiting', 'delayed', 'active', 'completed']);
    expect(jobs.filter((j) => j.id === a)).to.have.length(1);
  });
});
