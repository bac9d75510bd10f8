import pino from 'pino';
import type { AppContext } from '../../../shared/app/context';
import { jobIdOf, type DispatchResult, type Intent } from '../../../shared/app/intents';
import type { LiveDataRow, SettlementEventRow, SettlementPickRow, SettlementRecommendationRow, SettlementStore } from '../../../shared/app/settlement/ports';
import type { CacheScope } from '../../../shared/domain/cacheScopes';
import type { Change } from '../../../shared/domain/feed/changes';
import type { LegRecommendation, ResultWrite } from '../../../shared/domain/settlement/plan';
import { loadConfig } from '../../../shared/platform/config';
import { MemoryIngestStore } from './memoryIngestStore';
import { MemoryAnalysisStore } from './memoryAnalysisStore';
import { MemoryCreditsStore } from './memoryCreditsStore';
import { MemoryCommitmentStore } from './memoryCommitmentStore';
import { MemoryPicksStore } from './memoryPicksStore';
import { MemoryRefitStore } from './memoryRefitStore';
import { MemoryStreamStore } from './memoryStreamStore';
import { MemoryCorrectionStore, MemoryRollupStore } from './memorySettlementStores';
import { MemoryAccountStore, MemoryLedgerStore, MemoryPayments, MemoryRechargeStore, MemorySessionStore, MemoryThrottleStore } from './memoryBillingStores';
import { MemoryTrackRecordStore } from './memoryTrackRecordStore';
import { MemoryWebhookStore } from './memoryWebhookStore';

/**
 * An in-memory context for the use cases (shared/app/context.ts): the stores are plain arrays
 * whose conditional writes behave as MongoDB's (a write whose expected fields no longer match
 * does nothing), the dispatcher records what it is given, the clock stands still until moved.
 */

/** A document field compared as MongoDB does: a missing field equals null. */
const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

function applyWrites<T extends { _id: string }>(docs: T[], writes: readonly ResultWrite[]): { matchedCount: number } {
  let matchedCount = 0;
  for (const w of writes) {
    const i = docs.findIndex((d) => d._id === w.id && Object.entries(w.expect).every(([k, v]) => same(Reflect.get(d, k), v)));
    if (i < 0) continue;
    matchedCount++;
    const doc: Record<string, unknown> = { ...docs[i], ...w.set };
    if (w.correction) doc.corrections = [...(Array.isArray(doc.corrections) ? doc.corrections : []), w.correction];
    if (w.counted) doc.settlementWrites = (typeof doc.settlementWrites === 'number' ? doc.settlementWrites : 0) + 1;
    Object.assign(docs[i], doc);
  }
  return { matchedCount };
}

export class MemorySettlementStore implements SettlementStore {
  events: SettlementEventRow[] = [];
  liveData: LiveDataRow[] = [];
  recommendations: (SettlementRecommendationRow & { settlementWrites?: number; corrections?: unknown[] })[] = [];
  picks: (SettlementPickRow & { settlementWrites?: number })[] = [];
  markers = new Map<string, { version: number; at: Date }>();
  rollupDays: string[][] = [];
  committed: { recommendationEventIds: string[]; pickEventIds: string[] }[] = [];
  changes: Change[] = [];
  firstSettlements: string[] = [];
  /** What each run published to the betting-recommendations read model. */
  published: SettlementRecommendationRow[][] = [];
  /** Runs before each recommendation write (e.g. another writer changing a document meanwhile). */
  beforeRecommendationWrite: () => void = () => undefined;

  async findEvents(ids: readonly string[]) {
    return this.events.filter((e) => ids.includes(e._id)).map((e) => ({ ...e, settledVersion: this.markers.get(e._id)?.version ?? null }));
  }
  async findLiveData(ids: readonly string[]) {
    return this.liveData.filter((l) => ids.includes(l.eventId));
  }
  async findRecommendations(ids: readonly string[]) {
    return this.recommendations.filter((r) => ids.includes(r.eventId)).map((r) => ({ ...r }));
  }
  async writeRecommendationResults(writes: readonly ResultWrite[]) {
    this.beforeRecommendationWrite();
    return applyWrites(this.recommendations, writes);
  }
  async publishRecommendations(recs: readonly SettlementRecommendationRow[]) {
    this.published.push(recs.map((r) => ({ ...r })));
  }
  async findPicks(ids: readonly string[]) {
    return this.picks.filter((p) => p.eventIds.some((id) => ids.includes(id))).map((p) => ({ ...p }));
  }
  async findLegRecommendations(ids: readonly string[]): Promise<(LegRecommendation & { _id: string })[]> {
    return this.recommendations.filter((r) => ids.includes(r._id));
  }
  async findCancelledUnstartedEventIds(ids: readonly string[]) {
    return this.events.filter((e) => ids.includes(e._id) && e.status === 'cancelled' && !e.startedAt).map((e) => e._id);
  }
  async writePickResults(writes: readonly ResultWrite[]) {
    return applyWrites(this.picks, writes);
  }
  async refreshRollups(days: readonly string[]) {
    if (days.length) this.rollupDays.push([...days]);
  }
  async commitSettlements(recommendationEventIds: readonly string[], pickEventIds: readonly string[]) {
    this.committed.push({ recommendationEventIds: [...recommendationEventIds], pickEventIds: [...pickEventIds] });
  }
  async appendChanges(_batchId: string, changes: readonly Change[]) {
    this.changes.push(...changes);
  }
  async markSettled(versions: readonly { eventId: string; version: number }[], now: Date) {
    for (const v of versions) this.markers.set(v.eventId, { version: v.version, at: now });
  }
  recordFirstSettlements(events: readonly SettlementEventRow[]) {
    this.firstSettlements.push(...events.filter((e) => e.settledVersion === null || e.settledVersion === undefined).map((e) => e._id));
  }
  /** When each event was last updated (the sweep looks back from now); absent: long ago. */
  updatedAt = new Map<string, Date>();
  async findEventIdsWithOpenBets() {
    return [...new Set(this.recommendations.filter((r) => !r.settled && !r.settlementError).map((r) => r.eventId))];
  }
  async findSweepEvents(ids: readonly string[]) {
    return (await this.findEvents(ids)).filter((e) => e.status === 'completed' || e.status === 'cancelled' || (e.status === 'postponed' && Boolean(e.startedAt)));
  }
  async findEventsUpdatedSince(since: Date) {
    const ids = this.events.filter((e) => (this.updatedAt.get(e._id) ?? new Date(0)) >= since).map((e) => e._id);
    return this.findSweepEvents(ids);
  }
}

export interface FakeContext extends AppContext {
  readonly settlement: MemorySettlementStore;
  readonly rollups: MemoryRollupStore;
  readonly corrections: MemoryCorrectionStore;
  readonly ingest: MemoryIngestStore;
  readonly analysis: MemoryAnalysisStore;
  readonly picks: MemoryPicksStore;
  readonly refit: MemoryRefitStore;
  readonly credits: MemoryCreditsStore;
  readonly accounts: MemoryAccountStore;
  readonly recharges: MemoryRechargeStore;
  readonly ledger: MemoryLedgerStore;
  readonly payments: MemoryPayments;
  readonly throttle: MemoryThrottleStore;
  readonly sessions: MemorySessionStore;
  readonly commitments: MemoryCommitmentStore;
  readonly trackRecord: MemoryTrackRecordStore;
  readonly stream: MemoryStreamStore;
  readonly webhooks: MemoryWebhookStore;
  /** Every intention dispatched, in order. */
  readonly dispatched: Intent[];
  /** Every page-cache scope bumped, in order. */
  readonly bumped: CacheScope[];
  /** Moves the clock (real and world alike). */
  setNow(at: Date): void;
  /** Changes settings (as environment variables, over those the context was made with). */
  setEnv(env: Record<string, string>): void;
}

/**
 * `env`: settings as environment variables (the rest at their defaults). The world's clock runs as
 * the real one (toRealTime is the identity).
 */
export function fakeContext(at = new Date('2026-11-21T12:00:00Z'), env: Record<string, string> = {}): FakeContext {
  let now = at;
  let config = loadConfig(env);
  const dispatched: Intent[] = [];
  const bumped: CacheScope[] = [];
  const silent = pino({ level: 'silent' });
  return {
    clock: { now: () => now, worldNow: () => now, toRealTime: (worldMs) => worldMs },
    get config() {
      return config;
    },
    log: (bindings) => silent.child(bindings),
    dispatch: async (intents): Promise<DispatchResult[]> => {
      dispatched.push(...intents);
      return intents.map((intent) => ({ intent, jobIds: intent.kind === 'enqueue' ? [jobIdOf(intent)] : [], enqueued: true }));
    },
    cache: {
      bump: async (...scopes) => void bumped.push(...scopes),
    },
    settlement: new MemorySettlementStore(),
    rollups: new MemoryRollupStore(),
    corrections: new MemoryCorrectionStore(),
    ingest: new MemoryIngestStore(),
    analysis: new MemoryAnalysisStore(),
    picks: new MemoryPicksStore(),
    refit: new MemoryRefitStore(),
    credits: new MemoryCreditsStore(() => now),
    accounts: new MemoryAccountStore(() => now),
    recharges: new MemoryRechargeStore(() => now),
    ledger: new MemoryLedgerStore(),
    payments: new MemoryPayments(),
    throttle: new MemoryThrottleStore(),
    sessions: new MemorySessionStore(),
    commitments: new MemoryCommitmentStore(),
    trackRecord: new MemoryTrackRecordStore(),
    stream: new MemoryStreamStore(),
    webhooks: new MemoryWebhookStore(() => now),
    dispatched,
    bumped,
    setNow: (next) => {
      now = next;
    },
    setEnv: (more) => {
      config = loadConfig({ ...env, ...more });
    },
  };
}
