import { expect } from 'chai';
import { aiQueue } from '../../../jobs/ai';
import { enqueue, queueFor } from '../../../shared/platform/queues/client';
import { mulberry32, samplePoisson } from '../../../shared/domain/ai/random';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { findModelFitOfSport } from '../../../shared/platform/db/repositories/ai';
import { insertSeedDocuments } from '../../../shared/platform/db/repositories/fixtures';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';
import { SOCCER_MARKETS, simEvent } from '../../helpers/simEvents';

/**
 * The refit job fits on the games of the two years before the world's now, not the machine's:
 * a replay of 2018 (SIM_EPOCH in the past) refits on 2018's games. With the real clock it saw
 * none (they are more than two years before 2026) and never wrote a fit.
 */
const DAY = 86_400_000;
const WORLD_NOW = Date.parse('2018-10-01T12:00:00Z');

describe('refit on the world clock (real ai worker process, SIM_EPOCH in the past)', function () {
  this.timeout(60000);
  let worker: Spawned;

  before(async () => {
    await connectMongo();
    worker = spawnEntry('workers/ai.ts', { SIM_EPOCH: new Date(WORLD_NOW).toISOString(), SIM_SPEED: '1' });
  });
  after(async () => {
    if (worker && worker.child.exitCode === null) (worker.child.kill('SIGTERM'), await worker.exited);
  });

  it("happy: a refit in a past world uses that world's completed games and ranks its books", async () => {
    const rng = mulberry32(7);
    const teams = [931, 932, 933, 934];
    const games: ReturnType<typeof simEvent>[] = [];
    let k = 0;
    for (const h of teams)
      for (const a of teams) {
        if (h === a) continue;
        const start = new Date(WORLD_NOW - (60 - 4 * k) * DAY);
        const e = simEvent({
          id: `rwc${k}`,
          sportId: 1,
          x: [Math.log(1.4), Math.log(1.1)],
          home: { id: h, name: `Team ${h}` },
          away: { id: a, name: `Team ${a}` },
          competition: { id: 531, name: 'Replay League' },
          regionId: 53,
          startDateTime: start,
          markets: SOCCER_MARKETS,
          seed: 60 + k++,
        });
        games.push({ ...e, status: 'completed', startedAt: start, stats: { homeGoals: samplePoisson(rng, 1.5), awayGoals: samplePoisson(rng, 1.1) } } as unknown as ReturnType<typeof simEvent>);
      }
    await insertSeedDocuments('events', games);
    const jobId = await enqueue(aiQueue, 'refit', { sportId: 1, window: 'rwc-1' });
    const queue = queueFor(aiQueue);
    await waitUntil('the refit job', async () => ['completed', 'failed'].includes(await queue.getJobState(jobId)), 30000, 50);
    const job = (await queue.getJob(jobId))!;
    expect(job.failedReason, worker.output()).to.equal(undefined);
    const fit = await findModelFitOfSport(1);
    expect(fit, 'a fit of the world of 2018').to.not.equal(null);
    expect(fit!.gamesUsed).to.equal(games.length);
    expect(fit!.bookRanking[0]).to.equal('sharpbook');
  });
});
