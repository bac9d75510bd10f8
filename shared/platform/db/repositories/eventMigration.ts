import { insertInBatches } from '../bulk';
import { driverCollection } from '../collection';
import { Event, EventPrices, EventView } from '../models';
import { markEventsSettledAtVersions } from './eventSettlements';
import { packPrices } from './pricesPacking';

/**
 * Events stored in the layout before prices, views and the settlement marker had documents of
 * their own: `markets`, `oddsUpdatedAt` and the AI bookkeeping on the event, `liveStats` (now
 * built at read time), `views`, `settledVersion` / `settledAt`. Moved out in batches, idempotently
 * (a document already there wins: it is newer than the copy on the event), then unset on the event.
 * The live-odds snapshots collection of that layout is dropped: snapshots are built at read time.
 */
const OLD_FIELDS = ['markets', 'oddsUpdatedAt', 'analysisVersion', 'analysisRequestedVersion', 'analysisRequestedAt', 'liveStats', 'views', 'settledVersion', 'settledAt'] as const;
const BATCH = 200;

type OldEvent = { _id: string; dataSource?: string; status?: string; startedAt?: Date | null; updatedAt?: Date } & Partial<Record<(typeof OLD_FIELDS)[number], unknown>>;

const hasOldField = { $or: OLD_FIELDS.map((f) => ({ [f]: { $exists: true } })) };

export interface MigrationOutcome {
  events: number;
  prices: number;
  views: number;
  markers: number;
  snapshotsDropped: boolean;
  /** Prices documents whose tables were stored nested, now packed. */
  pricesPacked: number;
}

/** Moves every event of the earlier layout; returns what it moved (all zero on a store already migrated). */
export async function migrateEventsOfEarlierLayout(): Promise<MigrationOutcome> {
  const out: MigrationOutcome = { events: 0, prices: 0, views: 0, markers: 0, snapshotsDropped: false, pricesPacked: 0 };
  const events = driverCollection<OldEvent>(Event);
  for (;;) {
    const batch = await events
      .find(hasOldField, { projection: Object.fromEntries(['dataSource', 'status', 'startedAt', 'updatedAt', ...OLD_FIELDS].map((f) => [f, 1])) })
      .limit(BATCH)
      .toArray();
    if (batch.length === 0) break;
    const prices = batch
      .filter((e) => Array.isArray(e.markets))
      .map((e) => ({
        _id: e._id,
        ...packPrices({ dataSource: e.dataSource ?? 'unknown', markets: e.markets, previous: [] }),
        movedAt: e.oddsUpdatedAt ?? e.updatedAt ?? new Date(),
        oddsUpdatedAt: e.oddsUpdatedAt ?? null,
        // An event that had started had its snapshots served: it keeps them.
        liveFrom: e.startedAt ?? null,
        analysisVersion: e.analysisVersion ?? 0,
        analysisRequestedVersion: e.analysisRequestedVersion ?? e.analysisVersion ?? 0,
        analysisRequestedAt: e.analysisRequestedAt ?? null,
        createdAt: new Date(),
        updatedAt: new Date(),
      }));
    out.prices += await insertInBatches(driverCollection(EventPrices), prices, { ignoreDuplicates: true });
    for (const { _id, views } of batch) {
      if (typeof views !== 'number' || views <= 0) continue;
      await EventView.updateOne({ _id }, { $max: { views } }, { upsert: true });
      out.views++;
    }
    const markers = batch.flatMap(({ _id, settledVersion }) => (typeof settledVersion === 'number' ? [{ eventId: _id, version: settledVersion }] : []));
    if (markers.length) {
      await markEventsSettledAtVersions(markers, new Date());
      out.markers += markers.length;
    }
    // One by one on FerretDB (its bulk updates run one by one anyway, and stall past 100).
    const unset = { $unset: Object.fromEntries(OLD_FIELDS.map((f) => [f, ''] as const)) };
    for (const e of batch) await events.updateOne({ _id: e._id }, unset);
    out.events += batch.length;
  }
  const db = Event.db.db;
  if (db && (await db.listCollections({ name: 'liveoddssnapshots' }).toArray()).length) {
    await db.dropCollection('liveoddssnapshots');
    out.snapshotsDropped = true;
  }
  out.pricesPacked = await packNestedPriceTables();
  return out;
}

const hasNestedTable = { $or: [{ markets: { $exists: true } }, { previous: { $exists: true } }] };

/**
 * Prices documents written before their tables were packed (`markets` and `previous` nested):
 * each rewritten with its tables packed, the nested fields unset; idempotent.
 */
async function packNestedPriceTables(): Promise<number> {
  const prices = driverCollection(EventPrices);
  let n = 0;
  for (;;) {
    const batch = await prices
      .find(hasNestedTable, { projection: { markets: 1, previous: 1 } })
      .limit(BATCH)
      .toArray();
    if (batch.length === 0) return n;
    for (const p of batch) {
      const packed = packPrices({ markets: Array.isArray(p.markets) ? p.markets : [], previous: Array.isArray(p.previous) ? p.previous : [] });
      await prices.updateOne({ _id: p._id }, { $set: packed, $unset: { markets: '', previous: '' } });
      n++;
    }
  }
}

/** Whether this store has events of an earlier layout (two queries). */
export async function hasEventsOfEarlierLayout(): Promise<boolean> {
  if ((await driverCollection(Event).findOne(hasOldField, { projection: { _id: 1 } })) !== null) return true;
  return (await driverCollection(EventPrices).findOne(hasNestedTable, { projection: { _id: 1 } })) !== null;
}
