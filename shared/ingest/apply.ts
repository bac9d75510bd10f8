import type { Document } from 'mongodb';
import { chunks, type BulkCounts } from '../db/bulk';
import { appendOddsHistoryIgnoringDuplicates, findEventsForIngestByIds, writeEventOpsInBatches, writeLiveEventDataOpsInBatches, writeLiveOddsSnapshotOpsInBatches } from '../db/repositories/events';
import { setInsightsStatusWhereDifferent } from '../db/repositories/ai';
import { writeCompetitionOpsInBatches, writeRegionOpsInBatches, writeTeamOpsInBatches } from '../db/repositories/reference';
import type { IngestPlan, PrevEvent, WriteOp } from './plan';

/** The I/O half of ingestion: read the stored state a plan needs, write what it decided. */

const CHUNK = 2000;

/** Stored state of the polled events, in one query per chunk (never liveStats or views). */
export async function loadPrevious(ids: string[]): Promise<Map<string, PrevEvent>> {
  const out = new Map<string, PrevEvent>();
  for (const part of chunks(ids, CHUNK)) {
    const docs = await findEventsForIngestByIds(part);
    for (const d of docs) out.set(String(d._id), d as unknown as PrevEvent);
  }
  return out;
}

async function bulk(write: (ops: WriteOp[]) => Promise<BulkCounts>, ops: WriteOp[]): Promise<number> {
  const r = await write(ops);
  return r.upsertedCount + r.modifiedCount;
}

/**
 * Reference documents change rarely: each process remembers what it last wrote and skips
 * identical upserts (another worker writing the same document is harmless: same id, same body).
 */
const written = new Map<string, string>();

function refOps(kind: string, docs: Map<number, Document>, now: Date): { ops: WriteOp[]; commit: () => void } {
  const ops: WriteOp[] = [];
  const bodies: [string, string][] = [];
  for (const [id, doc] of docs) {
    const k = `${kind}:${id}`;
    const body = JSON.stringify(doc);
    if (written.get(k) === body) continue;
    bodies.push([k, body]);
    const { _id, ...fields } = doc;
    ops.push({ updateOne: { filter: { _id }, update: { $set: { ...fields, updatedAt: now }, $setOnInsert: { createdAt: now } }, upsert: true } });
  }
  // Remembered only once written: a failed write is retried on the next poll.
  return { ops, commit: () => bodies.forEach(([k, b]) => written.set(k, b)) };
}

async function upsertReferences(write: (ops: WriteOp[]) => Promise<BulkCounts>, kind: string, docs: Map<number, Document>, now: Date): Promise<number> {
  const { ops, commit } = refOps(kind, docs, now);
  const n = await bulk(write, ops);
  commit();
  return n;
}

/** The insights of events whose status changed follow it (one write per status). */
export async function syncInsightStatuses(changes: IngestPlan['statusChanges']): Promise<void> {
  const byStatus = new Map<string, string[]>();
  for (const c of changes) byStatus.set(c.status, [...(byStatus.get(c.status) ?? []), c.eventId]);
  for (const [status, ids] of byStatus) await setInsightsStatusWhereDifferent(ids, status);
}

/** Forgets the reference-document memo (tests that drop the database). */
export function forgetWrittenReferences(): void {
  written.clear();
}

export interface ApplyCounts {
  events: number;
  /** Markets in the event writes that replaced an event's markets (they are embedded in it). */
  markets: number;
  liveEventData: number;
  snapshots: number;
  history: number;
  references: number;
}

/**
 * Writes a plan: references and events first (a reader never finds a snapshot whose event is
 * missing), then live data, snapshots and history. Every write is an upsert keyed by a
 * stable id, or an insert a unique index deduplicates, so a replay changes nothing.
 */
export async function applyPlan(plan: IngestPlan, now: Date): Promise<{ counts: ApplyCounts; ms: Record<keyof Omit<ApplyCounts, 'markets'>, number> }> {
  let t = Date.now();
  const lap = () => -(t - (t = Date.now()));
  // One write at a time: FerretDB's PostgreSQL backend stalls when concurrent bulk writes exhaust
  // its connection pool, and on MongoDB the order keeps events ahead of their snapshots.
  const r1 = await upsertReferences(writeRegionOpsInBatches, 'region', plan.regions, now);
  const r2 = await upsertReferences(writeCompetitionOpsInBatches, 'competition', plan.competitions, now);
  const r3 = await upsertReferences(writeTeamOpsInBatches, 'team', plan.teams, now);
  const references = lap();
  const events = await bulk(writeEventOpsInBatches, plan.eventOps);
  const eventsMs = lap();
  const liveEventData = await bulk(writeLiveEventDataOpsInBatches, plan.liveDataOps);
  const liveMs = lap();
  const snapshots = await bulk(writeLiveOddsSnapshotOpsInBatches, plan.snapshotOps);
  const snapshotsMs = lap();
  const history = await appendOddsHistoryIgnoringDuplicates(plan.history);
  return {
    counts: { events, markets: plan.counts.markets, liveEventData, snapshots, history, references: r1 + r2 + r3 },
    ms: { references, events: eventsMs, liveEventData: liveMs, snapshots: snapshotsMs, history: lap() },
  };
}
