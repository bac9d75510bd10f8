import { expect } from 'chai';
import { eventMetaOf } from '../../../shared/platform/stream/eventMeta';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { clearReadData, COMPETITIONS, insertEvents, seedReference } from '../../helpers/fixtures';

/**
 * A stream's sport and competition filters (and its messages' team names) read each event's meta once and keep it: kept in the
 * process's scope, so the meta of one store's event is not served for another store's event of the
 * same id (a test file, a bench that wipes its data).
 */
describe('stream filters: the event meta kept per store', function () {
  before(async () => {
    await connectMongo();
    await clearReadData();
    await seedReference();
  });
  after(clearReadData);

  it('an event of the same id in a new store gets its own meta, not the one kept from the old store', async () => {
    await insertEvents({ id: 'meta-kept', competition: COMPETITIONS.nba, start: '2026-12-01T20:00:00Z' });
    expect(Object.fromEntries(await eventMetaOf(['meta-kept', 'meta-absent']))).to.deep.equal({
      'meta-kept': { sportId: 2, competitionId: 20, homeTeam: 'Los Angeles Lakers', awayTeam: 'Boston Celtics' },
    });
    await clearReadData();
    await seedReference();
    await insertEvents({ id: 'meta-kept', competition: COMPETITIONS.mlb, start: '2026-12-01T20:00:00Z' });
    expect((await eventMetaOf(['meta-kept'])).get('meta-kept')).to.deep.include({ sportId: 4, competitionId: 40, homeTeam: 'New York Yankees' });
  });
});
