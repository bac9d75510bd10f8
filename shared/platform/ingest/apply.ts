import { processMemo } from '../processScope';
import type { Document } from 'mongodb';
import { appendOddsHistoryIgnoringDuplicates, writeEventPrices, writeEvents, writeLiveEventData } from '../db/repositories/events';
import { setInsightsStatusWhereDifferent } from '../db/repositories/ai';
import { writeCompetitionOpsInBatches, writeRegionOpsInBatches, writeTeamOpsInBatches } from '../db/repositories/reference';
import type { BulkCounts } from '../db/bulk';
import { bumpCacheVersion } from '../cache/versions';
import type { AnyBulkWriteOperation } from 'mongodb';
import type { IngestPlan } from '../../domain/ingest/plan';

/**
 * The I/O half of ingestion: write what a plan decided (the state it compares against: state.ts);
 * the poll (shared/app/ingest/poll.ts) reaches it through the ingest store.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type WriteOp = AnyBulkWriteOperation<any>;

async function bulk(write: (ops: WriteOp[]) => Promise<BulkCounts>, ops: WriteOp[]): Promise<number> {
  const r = await write(ops);
  return r.upsertedCount + r.modifiedCount;
}

/**
 * Reference documents change rarely: each process remembers what it last wrote and skips
 * identical upserts (another worker writing the same document is harmless: same id, same body).
 */
const writtenOf = processMemo(() => new Map<string, string>());

function refOps(kind: string, docs: Map<number, Document>, now: Date): { ops: WriteOp[]; commit: () => void } {
  const ops: WriteOp[] = [];
  const bodies: [string, string][] = [];
  for (const [id, doc] of docs) {
    const k = `${kind}:${id}`;
    const body = JSON.stringify(doc);
    if (writtenOf().get(k) === body) continue;
    bodies.push([k, body]);
    const { _id, ...fields } = doc;
    ops.push({ updateOne: { filter: { _id }, update: { $set: { ...fields, updatedAt: now }, $setOnInsert: { createdAt: now } }, upsert: true } });
  }
  // Remembered only once written: a failed write is retried on the next poll.
  return { ops, commit: () => bodies.forEach(([k, b]) => writtenOf().set(k, b)) };
}

/**
 * Writes the reference documents that changed, then moves the `competitions` pages' version (the
 * reference pages: teams, competitions, regions) when any was written: an event's insert or
 * status change moves only `events`, which those pages that count events also depend on.
 * Remembered only after the bump, so a failed bump is made by the next poll's rewrite.
 */
async function upsertReferences(plan: IngestPlan, now: Date): Promise<[number, number, number]> {
  const regions = refOps('region', plan.regions, now);
  const competitions = refOps('competition', plan.competitions, now);
  const teams = refOps('team', plan.teams, now);
  const r1 = await bulk(writeRegionOpsInBatches, regions.ops);
  const r2 = await bulk(writeCompetitionOpsInBatches, competitions.ops);
  const r3 = await bulk(writeTeamOpsInBatches, teams.ops);
  if (regions.ops.length + competitions.ops.length + teams.ops.length > 0) await bumpCacheVersion('competitions');
  for (const kind of [regions, competitions, teams]) kind.commit();
  return [r1, r2, r3];
}

/** The insights of events whose status changed follow it (one write per status). */
export async function syncInsightStatuses(changes: IngestPlan['statusChanges']): Promise<void> {
  const byStatus = new Map<string, string[]>();
  for (const c of changes) byStatus.set(c.status, [...(byStatus.get(c.status) ?? []), c.eventId]);
  for (const [status, ids] of byStatus) await setInsightsStatusWhereDifferent(ids, status);
}

/**
 * Writes a plan: references and events first (a reader never finds prices or live data whose
 * event is missing), then prices, live data and history. New documents are inserted in batches,
 * changed ones updated by id; a reprice's history is one insert that a unique id deduplicates, so
 * a replay appends nothing.
 */
export async function applyPlan(plan: IngestPlan, now: Date) {
  let t = Date.now();
  const lap = () => -(t - (t = Date.now()));
  // One write at a time: FerretDB's PostgreSQL backend stalls when concurrent bulk writes exhaust
  // its connection pool, and on MongoDB the order keeps events ahead of their prices.
  const [r1, r2, r3] = await upsertReferences(plan, now);
  const references = lap();
  const events = await writeEvents(plan.events);
  const eventsMs = lap();
  const prices = await writeEventPrices(plan.prices);
  const pricesMs = lap();
  const liveEventData = await writeLiveEventData(plan.liveData);
  const liveMs = lap();
  const history = await appendOddsHistoryIgnoringDuplicates(plan.history);
  return {
    counts: { events, markets: plan.counts.markets, prices, liveEventData, history, references: r1 + r2 + r3 },
    ms: { references, events: eventsMs, prices: pricesMs, liveEventData: liveMs, history: lap() },
  };
}
