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

  it('error: six bulk writers at once (as a scaled stack sends them) all finish: none waits forever on the store connection pool', async () => {
    // With 20 updates per FerretDB command, two such commands held 38 of the pool's 40 connections
    // and both waited for a 40th: every later command to that FerretDB waited too.
    const writers = await Promise.all(
      Array.from({ length: 6 }, async (_, w) => {
        const eventId = await createEvent();
        const ids = await createRecommendations(
          eventId,
          Array.from({ length: 40 }, (_, i) => ({ key: `w${w}-${i}`, betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 0.5 + i })),
        );
        return { eventId, ops: ids.map((_id) => ({ updateOne: { filter: { _id, reasonCode: null }, update: { $set: { reasonCode: 'concurrent-bulk' } } } })) };
      }),
    );
    const results = await Promise.all(writers.map((w) => bulkWriteRecommendations(w.ops)));
    expect(results.map((r) => r.modifiedCount)).to.deep.equal([40, 40, 40, 40, 40, 40]);
    for (const w of writers) expect(await countRecommendationsMatching({ eventId: w.eventId, reasonCode: 'concurrent-bulk' })).to.equal(40);
  });

  it('happy: no operations write nothing', async () => {
    expect(await bulkWriteRecommendations([])).to.deep.equal({ matchedCount: 0, modifiedCount: 0, upsertedCount: 0 });
  });
});
