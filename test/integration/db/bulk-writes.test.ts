import { expect } from 'chai';
import { bulkWriteInBatches } from '../../../shared/db/bulk';
import { connectMongo } from '../../../shared/db/mongo';
import { Recommendation } from '../../../shared/db/models';
import { createEvent, createRecommendations } from '../../helpers/settlementFixtures';

/**
 * FerretDB 1.24 never answers one bulk command of about 100 updates (its SQL pool runs dry), and
 * the database stays stuck for every later writer. Settlement of one batch of events writes
 * thousands of conditional updates: they must reach the server in batches it can take.
 */
describe('bulk writes in server-sized batches', function () {
  this.timeout(60000);
  before(connectMongo);

  it('happy: 150 conditional updates (above the ~100 that hang FerretDB in one command) in one call all apply, and a second identical call matches none', async () => {
    const eventId = await createEvent();
    const ids = await createRecommendations(
      eventId,
      Array.from({ length: 150 }, (_, i) => ({ key: `b${i}`, betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 0.5 + i })),
    );
    // A conditional update that leaves the bets unsettled: other files' performance checks see every bet.
    const ops = ids.map((_id) => ({ updateOne: { filter: { _id, reasonCode: null }, update: { $set: { reasonCode: 'bulk-test' } } } }));
    const first = await bulkWriteInBatches(Recommendation, ops);
    expect(first).to.include({ matchedCount: 150, modifiedCount: 150 });
    const again = await bulkWriteInBatches(Recommendation, ops);
    expect(again.matchedCount).to.equal(0);
    expect(await Recommendation.countDocuments({ eventId, reasonCode: 'bulk-test' })).to.equal(150);
    await Recommendation.deleteMany({ eventId });
  });

  it('happy: no operations write nothing', async () => {
    expect(await bulkWriteInBatches(Recommendation, [])).to.deep.equal({ matchedCount: 0, modifiedCount: 0, upsertedCount: 0 });
  });
});
