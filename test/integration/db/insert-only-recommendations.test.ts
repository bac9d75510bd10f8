import { expect } from 'chai';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { findRecommendationsByIds, insertRecommendationsIfAbsent } from '../../../shared/platform/db/repositories/ai';

/**
 * Recommendations are insert-only: an analysis retried after a crash (another process, a store
 * restart) sends recommendations that are already stored. Those are skipped, the new ones
 * written, and the call succeeds (the duplicate-key check must read mongoose's insertMany error,
 * which keeps each write error's code under `err`, or such retries fail on E11000).
 */
describe('insert-only recommendations (insertRecommendationsIfAbsent)', function () {
  this.timeout(60000);
  before(connectMongo);

  const rec = (eventId: string, n: number) => ({
    _id: `${eventId}-rec-${n}`,
    eventId,
    marketId: `${eventId}-1x2`,
    betItemId: `${eventId}-1x2-${n}`,
    betTypeSysname: 'SOCCER_MATCH_RESULT',
    code: String(n),
    line: null,
    sportId: 1,
    outcome: String(n),
    bookmaker: 'simulated',
    odds: 2 + n / 10,
    probability: 0.5,
    fairOdds: 1.9,
    confidence: 'Medium',
    edgePercentage: 5,
    kellyFraction: 0.02,
    eventStartAt: new Date('2026-11-27T15:00:00Z'),
    settled: false,
    result: null,
    createdAt: new Date('2026-11-27T10:00:00Z'),
    updatedAt: new Date('2026-11-27T10:00:00Z'),
  });

  it('happy: a batch of new recommendations is written and handed back as stored', async () => {
    const docs = [1, 2, 3].map((n) => rec('ioa-new', n));
    const written = await insertRecommendationsIfAbsent(docs);
    expect(written.map((d) => d._id)).to.deep.equal(docs.map((d) => d._id));
    expect(await findRecommendationsByIds(docs.map((d) => d._id))).to.have.length(3);
  });

  it('error: a retry whose batch holds several stored recommendations writes only the new ones and succeeds', async () => {
    const first = [1, 2, 3].map((n) => rec('ioa-retry', n));
    await insertRecommendationsIfAbsent(first);
    const retry = [1, 2, 3, 4, 5].map((n) => ({ ...rec('ioa-retry', n), odds: 9 }));
    const written = await insertRecommendationsIfAbsent(retry);
    expect(written.map((d) => d._id).sort()).to.deep.equal(['ioa-retry-rec-4', 'ioa-retry-rec-5']);
    const stored = await findRecommendationsByIds(retry.map((d) => d._id));
    expect(stored).to.have.length(5);
    // Insert-only: the stored ones keep what was first written.
    expect(
      stored
        .filter((d) => d.odds === 9)
        .map((d) => d._id)
        .sort(),
    ).to.deep.equal(['ioa-retry-rec-4', 'ioa-retry-rec-5']);
  });

  it('error: a retry of a batch that is wholly stored writes nothing and succeeds', async () => {
    const docs = [1, 2].map((n) => rec('ioa-all', n));
    await insertRecommendationsIfAbsent(docs);
    expect(await insertRecommendationsIfAbsent(docs)).to.deep.equal([]);
  });
});
