import { expect } from 'chai';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { bulkWriteRecommendations, countRecommendationsMatching } from '../../../shared/platform/db/repositories/ai';
import { createEvent, createRecommendations } from '../../helpers/settlementFixtures';

/**
 * FerretDB 1.24 never answers one bulk command of about 100 updates (its SQL pool runs dry), and
 * the database stays stuck for every later writer. Settlement of one batch of events writes
 * thousands of conditional updates: they must reach the server in batches it can take.
 */
describe('bulk writes in server-sized batches', function () {
  this.timeout(60000);
  before(connectMongo);

  it('happy: 150 conditional updates (above the ~100 that hang FerretDB in one command) in one call of the recommendations bulk writer all apply, and a second identical call matches none', async () => {
    const eventId = await createEvent();
    const ids = await createRecommendations(
      eventId,
      Array.from({ length: 150 }, (_, i) => ({ key: `b${i}`, betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 0.5 + i })),
    );
    const ops = ids.map((_id) => ({ updateOne: { filter: { _id, reasonCode: null }, update: { $set: { reasonCode: 'bulk-test' } } } }));
    const first = await bulkWriteRecommendations(ops);
    expect(first).to.include({ matchedCount: 150, modifiedCount: 150 });
    const again = await bulkWriteRecommendations(ops);
    expect(again.matchedCount).to.equal(0);
    expect(await countRecommendationsMatching({ eventId, reasonCode: 'bulk-test' })).to.equal(150);
  });

  it('happy: no operations write nothing', async () => {
    expect(await bulkWriteRecommendations([])).to.deep.equal({ matchedCount: 0, modifiedCount: 0, upsertedCount: 0 });
  });
});
