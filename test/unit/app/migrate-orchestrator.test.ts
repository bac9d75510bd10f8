import { expect } from 'chai';
import { migrateStoredEvents } from '../../../shared/app/ingest/migrate';
import { fakeContext } from './fakeContext';

/** The move of events stored in an earlier layout, on an in-memory context: under every provider's ingest lock, then every worker's memory of them dropped. */

describe('stored events migration (in-memory context)', () => {
  it('happy: moves the events while no poll of any provider runs, then every provider reads its state from the store again', async () => {
    const ctx = fakeContext(new Date('2026-11-21T12:00:00Z'), { PROVIDERS: 'simulated,replay', REPLAY_DATA: '/data', REPLAY_SEASONS: 'E0_2223' });
    const moved = { events: 3, prices: 3, views: 1, markers: 2, snapshotsDropped: true, pricesPacked: 0 };
    ctx.ingest.earlierLayout = moved;
    ctx.ingest.memory.set('simulated', new Map());
    ctx.ingest.memory.set('replay', new Map());
    let locksDuringMove: string[] = [];
    const migrate = ctx.ingest.migrateEventsOfEarlierLayout.bind(ctx.ingest);
    ctx.ingest.migrateEventsOfEarlierLayout = async () => {
      locksDuringMove = [...ctx.ingest.locks];
      return migrate();
    };
    expect(await migrateStoredEvents(ctx)).to.deep.equal(moved);
    expect(locksDuringMove).to.deep.equal(['simulated', 'replay']);
    expect(ctx.ingest.locks.size).to.equal(0);
    expect([...ctx.ingest.memory.keys()]).to.deep.equal([]);
  });

  it('happy: a store already migrated costs one question and pauses nothing', async () => {
    const ctx = fakeContext();
    expect(await migrateStoredEvents(ctx, ['simulated'])).to.equal(null);
    expect(ctx.ingest.journal).to.deep.equal(['hasEventsOfEarlierLayout']);
  });
});
