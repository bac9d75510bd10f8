import { type BulkCounts, bulkWriteInBatches, insertInBatches } from '../bulk';
import { findWhereIn } from '../lookup';
import { EventSettlement } from '../models';

/**
 * Settled-at-version markers, one document per event (`eventsettlements`), written only by the
 * settlement worker. An event without a document was never settled.
 */

export interface SettlementMarker {
  settledVersion: number;
  settledAt: Date;
}

/** The markers of the events of `ids`: event id -> marker; events never settled are absent. */
export async function findSettledVersions(ids: readonly string[]): Promise<Map<string, SettlementMarker>> {
  const docs = await findWhereIn<SettlementMarker & { _id: string }>(EventSettlement, '_id', ids, { settledVersion: 1, settledAt: 1 });
  return new Map(docs.map((d) => [String(d._id), { settledVersion: d.settledVersion, settledAt: d.settledAt }]));
}

/** The marker of one event; null when it was never settled. */
export async function findSettledVersion(eventId: string): Promise<SettlementMarker | null> {
  return (await findSettledVersions([eventId])).get(eventId) ?? null;
}

const behind = (v: number) => ({ $or: [{ settledVersion: null }, { settledVersion: { $lt: v } }] });

/**
 * Marks each event settled at its version, only where the stored marker is behind (a marker at
 * or past the version keeps its version and settledAt); bulk, in server-sized batches.
 *
 * No write here is an upsert: an upsert filtered on the version would try to insert a second
 * document with the same `_id` whenever the stored marker is already ahead (a duplicate-key
 * error). Events without a marker are inserted instead, duplicates ignored; when one of those
 * inserts lost to another settlement worker's (a marker written between the read and the insert),
 * the conditional update below raises what that worker wrote if it is behind.
 */
export async function markEventsSettledAtVersions(versions: readonly { eventId: string; version: number }[], now: Date): Promise<BulkCounts> {
  const wanted = new Map<string, number>();
  for (const { eventId, version } of versions) wanted.set(eventId, Math.max(version, wanted.get(eventId) ?? -Infinity));
  const stored = await findWhereIn<{ _id: string; settledVersion?: number | null }>(EventSettlement, '_id', [...wanted.keys()], { settledVersion: 1 });
  const current = new Map(stored.map((d) => [String(d._id), d.settledVersion ?? -Infinity]));
  const fresh = [...wanted].filter(([id]) => !current.has(id));
  const raise = [...wanted].filter(([id, v]) => {
    const stored = current.get(id);
    return stored !== undefined && stored < v;
  });
  const at = new Date();
  const inserted = await insertInBatches(
    EventSettlement.collection,
    fresh.map(([id, v]) => ({ _id: id, settledVersion: v, settledAt: now, createdAt: at, updatedAt: at })),
    { ignoreDuplicates: true },
  );
  // The conditional update leaves the markers this call did insert as they are (not behind).
  if (inserted < fresh.length) raise.push(...fresh);
  const counts = await bulkWriteInBatches(
    EventSettlement,
    raise.map(([id, v]) => ({ updateOne: { filter: { _id: id, ...behind(v) }, update: { $set: { settledVersion: v, settledAt: now } } } })),
  );
  return { ...counts, upsertedCount: counts.upsertedCount + inserted };
}
