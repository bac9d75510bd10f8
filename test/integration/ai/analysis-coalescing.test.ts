import { Worker } from 'bullmq';
import { expect } from 'chai';
import { aiQueue } from '../../../jobs/ai';
import { beginAnalysis, beginPicksRebuild, requestAnalyses, requestPicksRebuild } from '../../../shared/platform/queues/coalesced';
import { bullPrefix, queueFor } from '../../../shared/platform/queues/client';
import { createRedis } from '../../../shared/platform/db/redis';
import { waitUntil } from '../../helpers/processes';

/**
 * The ai queue's contract with ingest, on real BullMQ: however often an event's odds change, at
 * most one analysis of it waits; the run reads the latest odds; a change during a run gets one
 * follow-up run.
 */
describe('analysis requests coalesce per event (real BullMQ)', function () {
  this.timeout(60_000);
  let worker: Worker | undefined;
  after(async () => {
    await worker?.close();
  });

  const waiting = async () => (await queueFor(aiQueue).getJobs(['waiting', 'delayed', 'prioritized'])).filter((j) => j.name === 'analyze-event');

  it('happy: a hundred requests for three events leave three waiting jobs', async () => {
    for (let i = 0; i < 100; i++) await requestAnalyses([`c-${i % 3}`]);
    const jobs = await waiting();
    expect(jobs.map((j) => j.data.eventId).sort()).to.deep.equal(['c-0', 'c-1', 'c-2']);
    await queueFor(aiQueue).obliterate({ force: true });
  });

  it('happy: a request while the run is active queues exactly one follow-up; one while that waits adds nothing', async () => {
    let release!: () => void;
    const running = new Promise<void>((r) => (release = r));
    const runs: string[] = [];
    worker = new Worker(
      aiQueue.name,
      async (job) => {
        await beginAnalysis(job.data.eventId);
        runs.push(String(job.id));
        if (runs.length === 1) await running;
      },
      { connection: createRedis('coalesce-test'), prefix: bullPrefix(aiQueue.name), concurrency: 1 },
    );
    await requestAnalyses(['c-run']);
    await waitUntil('the first run', () => runs.length === 1);
    expect(await waiting()).to.have.length(0);
    // Odds change three times during the run: one follow-up, under the next generation.
    for (let i = 0; i < 3; i++) await requestAnalyses(['c-run']);
    const follow = await waiting();
    expect(follow.map((j) => j.id)).to.deep.equal(['analyze-c-run-1']);
    release();
    await waitUntil('the follow-up run', () => runs.length === 2);
    expect(runs).to.deep.equal(['analyze-c-run-0', 'analyze-c-run-1']);
    // Nothing changed after the follow-up began: no third run.
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).to.have.length(2);
    expect(await waiting()).to.have.length(0);
  });

  it("happy: a picks rebuild asked within the spacing of the day's last one waits until the spacing is over; many requests meanwhile are one job; after it, at once", async () => {
    // No worker takes the jobs off the queue: this test reads them as they wait.
    await worker?.close();
    worker = undefined;
    const day = `2026-12-${String(process.pid % 28).padStart(2, '0')}`;
    const rebuilds = async () => (await queueFor(aiQueue).getJobs(['waiting', 'delayed', 'prioritized'])).filter((j) => j.name === 'rebuild-picks' && j.data.day === day);
    await beginPicksRebuild(day, 1500);
    for (let i = 0; i < 20; i++) await requestPicksRebuild(day);
    const [delayed, ...others] = await rebuilds();
    expect(others, 'one job for the twenty requests').to.have.length(0);
    expect(await delayed.getState()).to.equal('delayed');
    expect(delayed.opts.delay).to.be.within(1000, 1500);
    await delayed.remove();
    await new Promise((r) => setTimeout(r, 1600));
    await requestPicksRebuild(day);
    const [now] = await rebuilds();
    expect(await now.getState(), 'past the spacing').to.equal('waiting');
    // A spacing of 0: never delayed.
    await now.remove();
    await beginPicksRebuild(day, 0);
    await requestPicksRebuild(day);
    expect(await (await rebuilds())[0].getState()).to.equal('waiting');
    await queueFor(aiQueue).obliterate({ force: true });
  });
});
