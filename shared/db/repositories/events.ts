import { bulkWriteInBatches, type BulkCounts } from '../bulk';
import { Event, LiveEventData } from '../models';
import type { LiveEventDataDoc } from '../models/liveEventData';
import { SETTLEMENT_EVENT_FILTER } from '../../settlement/state';

/** An event as the result correction reads it. */
export interface CorrectionEventRow {
  _id: string;
  status: string;
  voided?: boolean | null;
  startedAt?: Date | null;
  resultVersion?: number | null;
  settledVersion?: number | null;
  stats?: (Partial<Record<string, number | null>> & { phase?: string | null }) | null;
}

/** The event fields a result correction reads, or null. */
export async function findEventForCorrection(eventId: string): Promise<CorrectionEventRow | null> {
  return Event.findById(eventId, { status: 1, voided: 1, startedAt: 1, resultVersion: 1, settledVersion: 1, stats: 1 }).lean<CorrectionEventRow>();
}

/**
 * Sets `set` on the event only while its resultVersion is still `resultVersion` (null/undefined:
 * never set). Of two concurrent corrections only one takes the next version. Returns matchedCount.
 */
export async function updateEventIfResultVersion(eventId: string, resultVersion: number | null | undefined, set: Record<string, unknown>): Promise<{ matchedCount: number }> {
  return Event.updateOne({ _id: eventId, resultVersion: resultVersion ?? { $in: [0, null] } }, { $set: set });
}

/** An event as settlement reads it. */
export interface SettlementEventRow {
  _id: string;
  status: string;
  voided?: boolean | null;
  startedAt?: Date | null;
  endedAt?: Date | null;
  resultVersion?: number | null;
  settledVersion?: number | null;
  stats?: Record<string, number | null> | null;
}

/** The events of `ids` with the fields settlement reads. */
export async function findEventsForSettlement(ids: readonly string[]): Promise<SettlementEventRow[]> {
  return Event.find({ _id: { $in: ids } }, { status: 1, voided: 1, startedAt: 1, endedAt: 1, resultVersion: 1, settledVersion: 1, stats: 1 }).lean<SettlementEventRow[]>();
}

/** The ids (as strings) of the events of `ids` that were cancelled before they started. */
export async function findCancelledUnstartedEventIds(ids: readonly string[]): Promise<string[]> {
  const others = await Event.find({ _id: { $in: ids }, status: 'cancelled', startedAt: null }, { _id: 1 }).lean();
  return others.map((o) => String(o._id));
}

/**
 * Marks each event settled at its version (Event.settledVersion, the marker the sweeper looks
 * for), only where the stored marker is behind; bulk, in server-sized batches.
 */
export async function markEventsSettledAtVersions(versions: readonly { eventId: string; version: number }[], now: Date): Promise<BulkCounts> {
  const markers = versions.map(({ eventId, version: v }) => ({
    updateOne: {
      filter: { _id: eventId, $or: [{ settledVersion: null }, { settledVersion: { $lt: v } }] },
      update: { $set: { settledVersion: v, settledAt: now } },
    },
  }));
  return bulkWriteInBatches(Event, markers);
}

/** An event as the settlement sweep reads it. */
export interface SweepEventRow {
  _id: string;
  status: string;
  voided?: boolean | null;
  startedAt?: Date | null;
  endedAt?: Date | null;
  resultVersion?: number | null;
  settledVersion?: number | null;
}

const SWEEP_FIELDS = { status: 1, voided: 1, startedAt: 1, endedAt: 1, resultVersion: 1, settledVersion: 1 } as const;

/** Settlement-relevant events updated since `since`. */
export async function findSettlementEventsUpdatedSince(since: Date): Promise<SweepEventRow[]> {
  return Event.find({ ...SETTLEMENT_EVENT_FILTER, updatedAt: { $gte: since } }, SWEEP_FIELDS).lean<SweepEventRow[]>();
}

/** Settlement-relevant events among `ids`. */
export async function findSettlementEventsByIds(ids: readonly string[]): Promise<SweepEventRow[]> {
  return Event.find({ _id: { $in: ids }, ...SETTLEMENT_EVENT_FILTER }, SWEEP_FIELDS).lean<SweepEventRow[]>();
}

export type LiveEventDataRow = LiveEventDataDoc & { _id: string };

/** The LiveEventData of one event, or null. */
export async function findLiveEventDataOfEvent(eventId: string): Promise<LiveEventDataRow | null> {
  return LiveEventData.findOne({ eventId }).lean<LiveEventDataRow>();
}

/** The LiveEventData of the events of `eventIds`. */
export async function findLiveEventDataOfEvents(eventIds: readonly string[]): Promise<LiveEventDataRow[]> {
  return LiveEventData.find({ eventId: { $in: eventIds } }).lean<LiveEventDataRow[]>();
}

/** Sets fields of one LiveEventData document. */
export async function setLiveEventDataFields(id: string, set: Record<string, unknown>): Promise<void> {
  await LiveEventData.updateOne({ _id: id }, { $set: set });
}
