import type { FilterQuery } from 'mongoose';
import type { StoredEvent } from '../../../domain/ingest/stored';
import { findWhereIn } from '../lookup';
import { Event } from '../models';
import { findSettledVersion, findSettledVersions } from './eventSettlements';

/**
 * The events settlement acts on, as a store filter: ended ones, and cancelled-before-start ones
 * (their parlays void the leg). Mirrors settlementState (shared/domain/settlement/state.ts).
 */
const SETTLEMENT_EVENT_FILTER = {
  $or: [{ status: 'completed' }, { status: 'postponed', startedAt: { $ne: null } }, { status: 'cancelled' }],
};

/**
 * Events as settlement reads them: the event's own fields (the Event model, written by ingest and
 * result corrections) with `settledVersion` from the event's marker in `eventsettlements`
 * (written by the settlement worker), null when it was never settled. The marker lives apart so
 * that each document has one writer; these reads put it back where settlement expects it.
 */

/** An event's settlement marker as these reads put it back on the event (null: never settled). */
type WithSettledVersion = { settledVersion?: number | null };

/** An event as the result correction reads it. */
export type CorrectionEventRow = Pick<StoredEvent, '_id' | 'status' | 'voided' | 'startedAt' | 'resultVersion' | 'stats'> & WithSettledVersion;

/** An event as settlement reads it. */
export type SettlementEventRow = Pick<StoredEvent, '_id' | 'status' | 'voided' | 'startedAt' | 'endedAt' | 'resultVersion' | 'stats' | 'closingLine'> & WithSettledVersion;

/** An event as the settlement sweep reads it (no stats). */
export type SweepEventRow = Omit<SettlementEventRow, 'stats'>;

/** Rows with their event's settledVersion (null: never settled). */
async function withSettledVersions<T extends { _id: string }>(rows: T[]): Promise<(T & { settledVersion: number | null })[]> {
  if (rows.length === 0) return [];
  const markers = await findSettledVersions(rows.map((r) => String(r._id)));
  return rows.map((r) => ({ ...r, settledVersion: markers.get(String(r._id))?.settledVersion ?? null }));
}

/** The event fields a result correction reads, or null. */
export async function findEventForCorrection(eventId: string): Promise<CorrectionEventRow | null> {
  const [event, marker] = await Promise.all([
    Event.findById(eventId, { status: 1, voided: 1, startedAt: 1, resultVersion: 1, stats: 1 }).lean<Omit<CorrectionEventRow, 'settledVersion'>>(),
    findSettledVersion(eventId),
  ]);
  return event && { ...event, settledVersion: marker?.settledVersion ?? null };
}

/** The events of `ids` with the fields settlement reads. */
export async function findEventsForSettlement(ids: readonly string[]): Promise<SettlementEventRow[]> {
  const events = await findWhereIn<Omit<SettlementEventRow, 'settledVersion'>>(Event, '_id', ids, { status: 1, voided: 1, startedAt: 1, endedAt: 1, resultVersion: 1, stats: 1, closingLine: 1 });
  return withSettledVersions(events);
}

const SWEEP_FIELDS = { status: 1, voided: 1, startedAt: 1, endedAt: 1, resultVersion: 1 } as const;

/**
 * Settlement-relevant events updated since `since`. Writing a marker does not touch the event, but
 * what puts a marker behind does (the event ending, a correction's new resultVersion), so an event
 * whose marker is behind was updated when it fell behind.
 */
export async function findSettlementEventsUpdatedSince(since: Date): Promise<SweepEventRow[]> {
  return withSettledVersions(await Event.find({ ...SETTLEMENT_EVENT_FILTER, updatedAt: { $gte: since } }, SWEEP_FIELDS).lean<Omit<SweepEventRow, 'settledVersion'>[]>());
}

/** Settlement-relevant events among `ids`. */
export async function findSettlementEventsByIds(ids: readonly string[]): Promise<SweepEventRow[]> {
  // By id (lookups FerretDB pushes down), then SETTLEMENT_EVENT_FILTER's condition in code.
  const events = await findWhereIn<Omit<SweepEventRow, 'settledVersion'>>(Event, '_id', ids, SWEEP_FIELDS);
  return withSettledVersions(events.filter((e) => e.status === 'completed' || e.status === 'cancelled' || (e.status === 'postponed' && Boolean(e.startedAt))));
}

/** Events matching the filter that were never settled (no marker). */
/**
 * Ended events never settled that were stored before `createdBefore` and ended in
 * [endedFrom, endedBefore) (world time): the health check's overdue settlements.
 */
export async function countSettlementsOverdue(w: OverdueWindow): Promise<number> {
  return (await findSettlementsOverdue(w)).length;
}

export interface OverdueWindow {
  createdBefore: Date;
  endedFrom: Date;
  endedBefore: Date;
}

/** The ids of the events countSettlementsOverdue counts (the soak names them). */
export function findSettlementsOverdue(w: OverdueWindow): Promise<string[]> {
  return findEventsNeverSettled({ ...SETTLEMENT_EVENT_FILTER, createdAt: { $lt: w.createdBefore }, endedAt: { $lt: w.endedBefore, $gte: w.endedFrom } });
}

export async function countEventsNeverSettled(filter: FilterQuery<StoredEvent>): Promise<number> {
  return (await findEventsNeverSettled(filter)).length;
}

async function findEventsNeverSettled(filter: FilterQuery<StoredEvent>): Promise<string[]> {
  const ids = (await Event.find(filter, { _id: 1 }).lean<{ _id: string }[]>()).map((e) => String(e._id));
  if (ids.length === 0) return [];
  const markers = await findSettledVersions(ids);
  return ids.filter((id) => !markers.has(id));
}
