import { expect } from 'chai';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { findEventById } from '../../../shared/platform/db/repositories/eventForms';
import { collectionExists, deleteAllIngested, insertRawEventDocuments, insertRawPricesDocuments, findRawPricesDocument } from '../../../shared/platform/db/repositories/fixtures';
import { findEventsForSettlement } from '../../../shared/platform/db/repositories/settlementEvents';
import { findIngestStateRows } from '../../../shared/platform/db/repositories/events';
import { migrateStoredEvents } from '../../../shared/app/ingest/migrate';
import { processContext } from '../../../shared/app/processContext';
import { eventDoc, seedReference } from '../../helpers/fixtures';

/**
 * A deployment upgraded in place: its events still hold their markets, views, settlement marker
 * and AI bookkeeping. The ingest worker moves them at start, once, while no poll runs.
 */
describe('events of the earlier layout are moved at ingest start', function () {
  this.timeout(60_000);
  before(async () => {
    await connectMongo();
    await deleteAllIngested();
    await seedReference();
  });
  after(deleteAllIngested);

  it('happy: markets, views, settlement marker and AI bookkeeping move to their documents; the event keeps none; a second run moves nothing', async () => {
    const start = new Date('2026-11-20T18:00:00Z');
    const upcoming = { ...eventDoc({ id: 'm1', start: '2026-12-01T18:00:00Z' }), views: 12, analysisVersion: 4, analysisRequestedVersion: 3, oddsUpdatedAt: new Date('2026-11-26T10:00:00Z') };
    const completed = { ...eventDoc({ id: 'm2', start, status: 'completed' }), views: 0, settledVersion: 1, settledAt: new Date('2026-11-20T21:00:00Z'), resultVersion: 1, liveStats: null };
    await insertRawEventDocuments([upcoming, completed], [{ _id: 'm2|simulated', eventId: 'm2', dataSource: 'simulated', capturedAt: start, liveMarkets: [] }]);

    const out = await migrateStoredEvents(processContext(), ['simulated']);
    expect(out).to.include({ events: 2, prices: 2, views: 1, markers: 1, snapshotsDropped: true });

    const m1 = (await findEventById('m1'))!;
    expect(m1.markets.map((m) => m.id)).to.deep.equal(upcoming.markets.map((m) => m.id));
    expect(m1.views).to.equal(12);
    const m2 = (await findEventById('m2'))!;
    expect(m2.markets).to.have.length(completed.markets.length);
    expect((await findEventsForSettlement(['m2']))[0].settledVersion).to.equal(1);
    // The AI bookkeeping is ingest's, with the prices: an asked version is not asked again.
    const rows = await findIngestStateRows(['m1', 'm2']);
    expect(rows.prices.get('m1')).to.include({ analysisVersion: 4, analysisRequestedVersion: 3 });
    // An event that had started keeps its live odds (served from its start).
    expect((rows.prices.get('m2') as { liveFrom: Date }).liveFrom.toISOString()).to.equal(start.toISOString());
    for (const [id, e] of rows.events) {
      for (const f of ['markets', 'views', 'settledVersion', 'settledAt', 'liveStats', 'oddsUpdatedAt', 'analysisVersion']) expect(e, `${id}.${f}`).to.not.have.property(f);
    }
    expect(await collectionExists('liveoddssnapshots')).to.equal(false);
    expect(await migrateStoredEvents(processContext(), ['simulated'])).to.equal(null);
  });

  it('happy: prices stored with nested tables are packed, served the same, and a second run packs nothing', async () => {
    const nested = eventDoc({ id: 'm3', start: '2026-12-02T18:00:00Z' });
    await insertRawEventDocuments([{ ...nested, markets: undefined }]);
    const previous = [{ id: nested.markets[0].betItems[0].id, price: 1.01, bookPrices: { simbook: 1.02 } }];
    await insertRawPricesDocuments([{ _id: 'm3', dataSource: 'simulated', markets: nested.markets, previous, movedAt: new Date(), liveFrom: null, analysisVersion: 2 }]);

    const out = await migrateStoredEvents(processContext(), ['simulated']);
    expect(out).to.include({ pricesPacked: 1 });

    const raw = (await findRawPricesDocument('m3'))!;
    expect(raw).to.not.have.property('markets');
    expect(raw).to.not.have.property('previous');
    expect(JSON.parse(raw.marketsJson as string)).to.deep.equal(nested.markets);
    expect((await findEventById('m3'))!.markets).to.deep.equal(nested.markets);
    expect((await findIngestStateRows(['m3'])).prices.get('m3')).to.deep.include({ analysisVersion: 2, markets: nested.markets });
    expect(await migrateStoredEvents(processContext(), ['simulated'])).to.equal(null);
  });
});
