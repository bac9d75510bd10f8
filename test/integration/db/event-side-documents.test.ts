import { expect } from 'chai';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { findSettledVersion, findSettledVersions, markEventsSettledAtVersions } from '../../../shared/platform/db/repositories/eventSettlements';
import { findViewCounts, findViewsOfEvents, incrementEventViews, raiseEventViewsTo } from '../../../shared/platform/db/repositories/eventViews';
import { countEventsSettledAt, deleteAllReadData, insertSeedDocuments, setEventFields } from '../../../shared/platform/db/repositories/fixtures';
import {
  countEventsNeverSettled,
  findEventForCorrection,
  findEventsForSettlement,
  findSettlementEventsByIds,
  findSettlementEventsUpdatedSince,
} from '../../../shared/platform/db/repositories/settlementEvents';
import { eventDoc } from '../../helpers/fixtures';

/**
 * An event's view count and settlement marker live in documents of their own (eventviews,
 * eventsettlements), one writer each, so that no write to the event can undo them on FerretDB.
 * Settlement still reads its events with `settledVersion`, joined from the marker.
 */
describe('event side documents: eventviews and eventsettlements', function () {
  this.timeout(60000);
  const start = new Date('2030-05-01T15:00:00Z');
  const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  before(async () => {
    await connectMongo();
  });
  beforeEach(async () => {
    await deleteAllReadData();
  });

  describe('views', () => {
    it('happy: raising creates the count, never lowers it; an increment returns the new count, the first one included', async () => {
      await raiseEventViewsTo('v1', 5);
      await raiseEventViewsTo('v1', 3);
      expect(await incrementEventViews('v1')).to.equal(6);
      expect(await incrementEventViews('v2')).to.equal(1);
      const views = await findViewsOfEvents(['v1', 'v2', 'v3']);
      expect([...views.entries()].sort()).to.deep.equal([
        ['v1', 6],
        ['v2', 1],
      ]);
    });

    it('happy: every count above zero, and lookups of more events than go one by one', async () => {
      const many = ids('m', 130);
      for (const [i, id] of many.entries()) await raiseEventViewsTo(id, i);
      expect((await findViewsOfEvents(many)).size).to.equal(130);
      const counts = await findViewCounts();
      expect(counts.size).to.equal(129); // m0 stayed at 0
      expect(counts.get('m129')).to.equal(129);
    });

    it('happy: an event seeded with views has them in eventviews, not on the event; 0 views store nothing', async () => {
      await insertSeedDocuments('events', [eventDoc({ id: 's1', start, views: 41 }), eventDoc({ id: 's2', start })]);
      expect([...(await findViewsOfEvents(['s1', 's2'])).entries()]).to.deep.equal([['s1', 41]]);
      await setEventFields('s2', { views: 7, status: 'live' });
      expect((await findViewsOfEvents(['s2'])).get('s2')).to.equal(7);
      expect((await findEventsForSettlement(['s2']))[0]).to.deep.include({ status: 'live' });
    });
  });

  describe('settlement markers', () => {
    const now = new Date('2030-05-01T18:00:00Z');
    const later = new Date('2030-05-01T19:00:00Z');

    it('happy: marks events never settled; an older version later changes nothing, a newer one raises version and time', async () => {
      await markEventsSettledAtVersions([{ eventId: 'e1', version: 0 }], now);
      expect(await findSettledVersion('e1')).to.deep.equal({ settledVersion: 0, settledAt: now });
      await markEventsSettledAtVersions([{ eventId: 'e1', version: 2 }], now);
      await markEventsSettledAtVersions([{ eventId: 'e1', version: 1 }], later);
      await markEventsSettledAtVersions([{ eventId: 'e1', version: 2 }], later);
      expect(await findSettledVersion('e1')).to.deep.equal({ settledVersion: 2, settledAt: now });
      await markEventsSettledAtVersions([{ eventId: 'e1', version: 3 }], later);
      expect(await findSettledVersion('e1')).to.deep.equal({ settledVersion: 3, settledAt: later });
      expect(await findSettledVersion('never')).to.equal(null);
    });

    it('happy: one call mixing markers ahead, behind and absent, over more events than one FerretDB batch, fails on no duplicate key', async () => {
      const ahead = ids('a', 25);
      const behind = ids('b', 25);
      const absent = ids('n', 25);
      await markEventsSettledAtVersions([...ahead.map((eventId) => ({ eventId, version: 5 })), ...behind.map((eventId) => ({ eventId, version: 0 }))], now);
      const counts = await markEventsSettledAtVersions(
        [...ahead, ...behind, ...absent].map((eventId) => ({ eventId, version: 1 })),
        later,
      );
      expect(counts).to.include({ upsertedCount: 25, modifiedCount: 25 });
      const markers = await findSettledVersions([...ahead, ...behind, ...absent]);
      expect(ahead.map((id) => markers.get(id)!.settledVersion)).to.deep.equal(ahead.map(() => 5));
      expect(behind.map((id) => markers.get(id)!.settledVersion)).to.deep.equal(behind.map(() => 1));
      expect(absent.map((id) => markers.get(id)!.settledAt)).to.deep.equal(absent.map(() => later));
    });

    it('happy: two workers marking the same new events at once at different versions leave the higher one', async () => {
      const evs = ids('c', 30);
      await Promise.all([
        markEventsSettledAtVersions(
          evs.map((eventId) => ({ eventId, version: 0 })),
          now,
        ),
        markEventsSettledAtVersions(
          evs.map((eventId) => ({ eventId, version: 1 })),
          later,
        ),
      ]);
      expect(await countEventsSettledAt(evs, 1)).to.equal(evs.length);
    });

    it('happy: settlement reads its events with the marker joined in: null when never settled, the version once settled', async () => {
      const ended = (id: string, over: Record<string, unknown> = {}) => ({ ...eventDoc({ id, start, status: 'completed' }), endedAt: now, ...over });
      await insertSeedDocuments('events', [ended('j1'), ended('j2', { resultVersion: 1, settledVersion: 0, settledAt: now }), ended('j3', { resultVersion: 1 }), eventDoc({ id: 'j4', start })]);
      const rows = new Map((await findEventsForSettlement(['j1', 'j2', 'j3', 'j4'])).map((e) => [e._id, e]));
      expect(rows.get('j1')).to.deep.include({ status: 'completed', resultVersion: 0, settledVersion: null });
      expect(rows.get('j2')).to.deep.include({ resultVersion: 1, settledVersion: 0 });
      expect(rows.get('j4')).to.deep.include({ status: 'upcoming', settledVersion: null });
      expect(await findEventForCorrection('j2')).to.deep.include({ resultVersion: 1, settledVersion: 0 });
      expect(await findEventForCorrection('nope')).to.equal(null);

      await markEventsSettledAtVersions([{ eventId: 'j1', version: 0 }], later);
      // Marking does not touch the event, yet the sweep's reads see the new marker.
      const recent = new Map((await findSettlementEventsUpdatedSince(new Date(Date.now() - 60_000))).map((e) => [e._id, e.settledVersion]));
      expect([...recent.entries()].sort()).to.deep.equal([
        ['j1', 0],
        ['j2', 0],
        ['j3', null],
      ]);
      expect((await findSettlementEventsByIds(['j1', 'j4'])).map((e) => [e._id, e.settledVersion])).to.deep.equal([['j1', 0]]);
      expect(await countEventsNeverSettled({ _id: { $in: ['j1', 'j2', 'j3', 'j4'] } })).to.equal(2);
      await setEventFields('j3', { settledVersion: 1 });
      expect(await countEventsNeverSettled({ _id: { $in: ['j1', 'j2', 'j3', 'j4'] } })).to.equal(1);
    });
  });
});
