import { processMemo } from '../processScope';
import { randomUUID } from 'node:crypto';
import { key, redis } from '../db/redis';
import { waitForLock } from '../locks';
import { findIngestStateRows, type IngestLiveRow } from '../db/repositories/events';
import { statsOf, type StatKey } from '../../domain/stats';
import type { PrevLive, PrevState } from '../../domain/ingest/plan';
import type { StoredStats } from '../../domain/ingest/stored';

/**
 * What ingestion knows of the stored state of a provider's events, kept in the worker between
 * polls so that a poll reads nothing back from the store. It is valid while the token it was
 * saved with is the one in Redis (`ingest:state:<provider>`): a poll clears the token before it
 * writes and sets a new one after, so a crash mid-write, a poll by another worker, and a writer
 * outside ingest (a result correction, which clears it: `forgetIngestState`) all make the next
 * poll read the state from the store again.
 */
interface Memo {
  token: string;
  states: Map<string, PrevState>;
}

const memosOf = processMemo(() => new Map<string, Memo>());
const tokenKey = (provider: string) => key('ingest', 'state', provider);

/** An event's stored stats as the planner compares against them (a count not stored reads as null; the phase as stored). */
function storedStatsOf(s: Partial<Record<StatKey, number | null>> & { phase?: string | null }): StoredStats {
  return { ...statsOf((k) => s[k] ?? null), ...(s.phase === undefined ? {} : { phase: s.phase }) };
}

/** A stored LiveEventData document as the planner compares against it (a field not stored reads as null). */
function liveOf(row: IngestLiveRow): PrevLive {
  return {
    stats: statsOf((k) => row[k] ?? null),
    phaseSysname: row.phaseSysname ?? null,
    isLive: row.isLive === true,
    isInPlay: row.isInPlay === true,
    details: row.liveDataJson ?? {},
    elapsedSeconds: row.elapsedSeconds ?? null,
    elapsedAt: row.elapsedAt ?? null,
    clockRate: row.clockRate ?? null,
  };
}

/** The state of these events, read from the store (the memory was lost). */
async function readFromStore(ids: readonly string[]): Promise<Map<string, PrevState>> {
  const rows = await findIngestStateRows(ids);
  const out = new Map<string, PrevState>();
  for (const [id, event] of rows.events) {
    const prices = rows.prices.get(id);
    const live = rows.live.get(id);
    out.set(id, {
      event: { ...event, stats: event.stats ? storedStatsOf(event.stats) : event.stats },
      prices: prices
        ? {
            markets: prices.markets,
            liveFrom: prices.liveFrom ?? null,
            analysisVersion: prices.analysisVersion ?? 0,
            analysisRequestedVersion: prices.analysisRequestedVersion ?? 0,
            analysisRequestedAt: prices.analysisRequestedAt ?? null,
          }
        : null,
      live: live ? liveOf(live) : null,
    });
  }
  return out;
}

/**
 * The stored state of these events: from memory when it is still valid (events it does not hold,
 * new to the listing or back in it, are looked up by id), else all from the store. Returns how
 * many events were read from the store.
 */
export async function loadIngestState(provider: string, ids: readonly string[]): Promise<{ states: Map<string, PrevState>; readFromStore: number }> {
  const memo = memosOf().get(provider);
  const token = await redis().get(tokenKey(provider));
  if (memo && token !== null && memo.token === token) {
    const missing = ids.filter((id) => !memo.states.has(id));
    if (missing.length === 0) return { states: memo.states, readFromStore: 0 };
    const states = new Map(memo.states);
    for (const [id, st] of await readFromStore(missing)) states.set(id, st);
    return { states, readFromStore: missing.length };
  }
  memosOf().delete(provider);
  return { states: await readFromStore(ids), readFromStore: ids.length };
}

/** Called before a poll writes: until `saveIngestState`, no memory of this provider is valid. */
export async function invalidateIngestState(provider: string): Promise<void> {
  memosOf().delete(provider);
  await redis().del(tokenKey(provider));
}

/** Called once a poll's writes are acknowledged: the state they left is the next poll's. */
export async function saveIngestState(provider: string, states: Map<string, PrevState>): Promise<void> {
  const token = randomUUID();
  await redis().set(tokenKey(provider), token);
  memosOf().set(provider, { token, states });
}

/**
 * For a writer of fields ingestion reads (a result correction): every worker reads the provider's
 * state from the store on its next poll. Called while holding the provider's ingest lock.
 */
export async function forgetIngestState(provider: string): Promise<void> {
  await invalidateIngestState(provider);
}

/** One poll of a provider at a time, whichever worker runs it (shared/platform/locks.ts). */
export const ingestLockKey = (provider: string) => key('ingest', 'lock', provider);

/**
 * Renewed every third of it while a poll runs; after a crash or a stop that cut a poll short, the
 * next poll waits at most this long.
 */
export const INGEST_LOCK_TTL_MS = 15_000;

/**
 * Runs `fn` while no poll of the provider runs (holding its ingest lock, waiting up to a minute
 * for a poll to end): how a writer outside ingest (a result correction) keeps the event's
 * documents to one writer at a time. FerretDB rewrites a whole document on every update, so two
 * writers of one document at once lose one's write.
 */
export function whileIngestPaused<T>(provider: string, fn: () => Promise<T>): Promise<T> {
  return waitForLock(redis(), ingestLockKey(provider), fn, INGEST_LOCK_TTL_MS, 60_000);
}
