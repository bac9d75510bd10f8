import { expect } from 'chai';
import { enqueue, enqueueMany, queueFor } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { equalRollups } from '../../../shared/domain/grading';
import { countRecommendationsMatching } from '../../../shared/platform/db/repositories/ai';
import { countEventsSettledAt, findPicksById, findRecommendationsOfEventsById } from '../../../shared/platform/db/repositories/fixtures';
import { loadRollups, recomputeAll } from '../../../shared/app/settlement/rollups';
import { processContext } from '../../../shared/app/processContext';
import { sigkillTree } from '../../helpers/kill';
import { deleteKeysOfThisRun } from '../../helpers/redisKeys';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';
import { createEvent, createPick, createRecommendations, recId, type BetSpec } from '../../helpers/settlementFixtures';

/**
 * Settlement must grade every bet exactly once whatever dies: a worker killed mid-batch, or Redis
 * losing every queued job. Real worker and scheduler processes, real queues; exactly-once is read
 * from each bet's settlementWrites (incremented in the same conditional update that settles it).
 */
const BETS: BetSpec[] = [
  { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', confidence: 'High' },
  { key: 'mrX', betTypeSysname: 'SOCCER_MATCH_RESULT', code: 'X', confidence: 'Low' },
  { key: 'mr2', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '2', confidence: 'Medium' },
  { key: 'uo25O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 2.5, confidence: 'High' },
  { key: 'uo25U', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'U', line: 2.5, confidence: 'Medium' },
  { key: 'uo275O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 2.75, confidence: 'Low' },
  { key: 'bttsY', betTypeSysname: 'SOCCER_BOTH_TEAMS_TO_SCORE', code: 'Y', confidence: 'Medium' },
  { key: 'co95O', betTypeSysname: 'SOCCER_CORNERS_UNDER_OVER', code: 'O', line: 9.5, confidence: 'High' },
  { key: 'ahm125', betTypeSysname: 'SOCCER_ASIAN_HANDICAP', code: '1', line: -1.25, confidence: 'Low' },
  { key: 'fh1', betTypeSysname: 'SOCCER_FIRST_HALF_RESULT', code: '1', confidence: 'Medium' },
];

async function seed(events: number, betsPerEvent: number): Promise<{ eventIds: string[]; pickIds: string[] }> {
  const eventIds: string[] = [];
  for (let i = 0; i < events; i++) {
    const id = await createEvent({ led: { homeGoals: i % 4, awayGoals: (i * 3) % 5, homeGoalsFirstHalf: 0, awayGoalsFirstHalf: i % 2, homeCorners: 3 + (i % 9), awayCorners: 4 } });
    await createRecommendations(id, BETS.slice(0, betsPerEvent));
    eventIds.push(id);
  }
  const pickIds: string[] = [];
  for (let i = 0; i + 1 < eventIds.length; i += 2) {
    pickIds.push(await createPick(`parlay-${eventIds[i]}`, [recId(eventIds[i], 'mr1'), recId(eventIds[i + 1], 'uo25O')]));
    pickIds.push(await createPick(`single-${eventIds[i]}`, [recId(eventIds[i], 'uo25U')]));
  }
  return { eventIds, pickIds };
}

/** Every bet of these events settled exactly once, every pick too, every event marked, rollups true. */
async function expectExactlyOnce(eventIds: string[], pickIds: string[], betsPerEvent: number): Promise<void> {
  const recs = await findRecommendationsOfEventsById(eventIds);
  expect(recs).to.have.length(eventIds.length * betsPerEvent);
  const writes = recs.map((r) => `${r.settled}:${r.settlementWrites}:${r.corrections.length}`);
  expect(new Set(writes), 'settled:settlementWrites:corrections of every bet').to.deep.equal(new Set(['true:1:0']));
  const picks = await findPicksById({ ids: pickIds });
  expect(picks).to.have.length(pickIds.length);
  expect(new Set(picks.map((p) => `${p.settled}:${p.settlementWrites}`))).to.deep.equal(new Set(['true:1']));
  expect(await countEventsSettledAt(eventIds, 0)).to.equal(eventIds.length);
  const { rollups, invalid } = await recomputeAll(processContext());
  expect(invalid).to.deep.equal([]);
  const check = equalRollups(await loadRollups(processContext()), rollups);
  expect(check.differences, 'stored rollups vs a recomputation from the bets').to.deep.equal([]);
  expect(check.equal).to.equal(true);
}

async function settledCount(eventIds: string[]): Promise<number> {
  return countRecommendationsMatching({ eventId: { $in: eventIds }, settled: true });
}

const stop = async (p: Spawned | undefined) => {
  if (p && p.child.exitCode === null && p.child.signalCode === null) (p.child.kill('SIGTERM'), await p.exited);
};

describe('settlement resilience (worker and scheduler processes)', function () {
  this.timeout(240_000);
  const running: Spawned[] = [];
  before(connectMongo);
  // Earlier files leave settle jobs of their own in this run's queue.
  beforeEach(() => queueFor(settlementQueue).obliterate({ force: true }));
  afterEach(async () => {
    for (const p of running.splice(0)) await stop(p);
    await queueFor(settlementQueue).obliterate({ force: true });
  });

  it('happy: Redis flushed after completion loses no settlement: the sweep re-enqueues and every bet settles once', async () => {
    const { eventIds, pickIds } = await seed(8, 5);
    // What ingest left in Redis when the events ended: one delayed settle job each...
    for (const id of eventIds) await enqueue(settlementQueue, 'settle-event', { eventId: id, resultVersion: 0 }, { delay: 600_000 });
    expect(await queueFor(settlementQueue).getDelayedCount()).to.equal(eventIds.length);
    // ...and then Redis lost everything.
    expect(await deleteKeysOfThisRun()).to.be.greaterThan(0);
    expect(await queueFor(settlementQueue).getDelayedCount()).to.equal(0);

    running.push(spawnEntry('workers/settlement.ts', { SETTLEMENT_LOCK_MS: '3000' }));
    running.push(spawnEntry('workers/scheduler.ts', { SETTLEMENT_SWEEP_MS: '1500', POLL_INTERVAL_MS: '3600000' }));
    await waitUntil('the sweep to settle every bet', async () => (await settledCount(eventIds)) === eventIds.length * 5, 150_000, 500);
    await waitUntil('every event marked settled', async () => (await countEventsSettledAt(eventIds, 0)) === eventIds.length, 30_000, 250);
    await expectExactlyOnce(eventIds, pickIds, 5);
    const swept = (await queueFor(settlementQueue).getJobs(['completed'])).filter((j) => j.name === 'sweep');
    expect(swept.length, 'completed sweep jobs').to.be.greaterThan(0);
  });

  it('happy: a settlement worker SIGKILLed mid-batch three times still settles each bet exactly once', async () => {
    const perEvent = BETS.length;
    const { eventIds, pickIds } = await seed(30, perEvent);
    const total = eventIds.length * perEvent;
    await enqueueMany(
      settlementQueue,
      'settle-event',
      eventIds.map((eventId) => ({ eventId, resultVersion: 0 })),
    );
    // Small batches (a few events per pass) so there is a "mid-batch" to kill in.
    const env = { SETTLEMENT_LOCK_MS: '2000', SETTLEMENT_CONCURRENCY: '4' };
    const atKill: number[] = [];
    let last = 0;
    for (let kill = 1; kill <= 3; kill++) {
      const worker = spawnEntry('workers/settlement.ts', env);
      running.push(worker);
      await waitUntil(
        `progress before kill ${kill}`,
        async () => {
          const n = await settledCount(eventIds);
          return n > last && n < total;
        },
        120_000,
        50,
      );
      await sigkillTree(worker);
      last = await settledCount(eventIds);
      atKill.push(last);
    }
    expect(
      atKill.every((n) => n > 0 && n < total),
      `settled bets at each kill: ${atKill.join(', ')} of ${total}`,
    ).to.equal(true);

    running.push(spawnEntry('workers/settlement.ts', env));
    await waitUntil('every bet settled after the kills', async () => (await settledCount(eventIds)) === total, 180_000, 500);
    await waitUntil('every event marked settled', async () => (await countEventsSettledAt(eventIds, 0)) === eventIds.length, 60_000, 250);
    await expectExactlyOnce(eventIds, pickIds, perEvent);
  });
});
