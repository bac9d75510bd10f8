import type { AppliedPlan, IngestStore, LoadedState, MigrationOutcome, ProviderStateFields } from '../../../shared/app/ingest/ports';
import type { CacheScope } from '../../../shared/domain/cacheScopes';
import type { Change } from '../../../shared/domain/feed/changes';
import type { DocWrite, HistoryDoc, IngestPlan, PrevState } from '../../../shared/domain/ingest/plan';

type Step = keyof IngestStore;

/** A change of the feed with the poll (batch) that staged it. */
export interface FedChange {
  poll: string;
  change: Change;
}

/** The documents of one collection by id: an insert sets the whole document, an update merges its fields. */
function write(docs: Map<string, Record<string, unknown>>, writes: readonly DocWrite[]): number {
  for (const w of writes) docs.set(w.id, w.insert ? { ...w.set } : { ...docs.get(w.id), ...w.set });
  return writes.length;
}

/**
 * Ingestion's store in memory (shared/app/ingest/ports.ts): the documents a plan writes, the
 * state ingestion reads back from them (each plan's `next`), the process's memory of it that a
 * poll invalidates before writing, the change feed's staged and published changes, the slot and
 * the lock. Every call is journaled in order, and `failOnce` makes a step throw the next time it
 * runs (a crash or an outage at that point).
 */
export class MemoryIngestStore implements IngestStore {
  /** Each provider's state, the fields of every write merged. */
  readonly providerStates = new Map<string, ProviderStateFields>();
  readonly events = new Map<string, Record<string, unknown>>();
  readonly prices = new Map<string, Record<string, unknown>>();
  readonly liveData = new Map<string, Record<string, unknown>>();
  /** History documents by id (a replayed reprice is not appended twice). */
  readonly history = new Map<string, HistoryDoc>();
  /** What the stored documents say of each event, as ingestion reads them back. */
  readonly stored = new Map<string, PrevState>();
  /** The process's memory of each provider's state, while valid. */
  readonly memory = new Map<string, Map<string, PrevState>>();
  readonly staged = new Map<string, FedChange[]>();
  /** The change feed, in publication order. */
  readonly feed: FedChange[] = [];
  readonly insightStatuses = new Map<string, string>();
  readonly cacheBumps: CacheScope[] = [];
  /** The events of each listing publication. */
  readonly listingPublishes: string[][] = [];
  readonly slots = new Map<string, string>();
  /** Providers whose ingest lock is held. */
  readonly locks = new Set<string>();
  readonly worldClockSkips: number[] = [];
  /** Every call, in order. */
  readonly journal: Step[] = [];
  private readonly failing = new Set<Step>();

  /** The next call of `step` throws (once). */
  failOnce(step: Step): void {
    this.failing.add(step);
  }

  private step(name: Step): void {
    this.journal.push(name);
    if (this.failing.delete(name)) throw new Error(`${name}: the store went away`);
  }

  private publish(provider: string): number {
    const staged = this.staged.get(provider) ?? [];
    this.feed.push(...staged);
    this.staged.delete(provider);
    return staged.length;
  }

  async updateProviderState(provider: string, fields: ProviderStateFields) {
    this.step('updateProviderState');
    this.providerStates.set(provider, { ...this.providerStates.get(provider), ...fields });
  }
  async findLiveEventIds(provider: string) {
    this.step('findLiveEventIds');
    return [...this.events].filter(([, e]) => e.dataSource === provider && e.status === 'live').map(([id]) => id);
  }
  async recoverStagedChanges(provider: string) {
    this.step('recoverStagedChanges');
    return this.publish(provider);
  }
  async stageChanges(provider: string, batchId: string, changes: readonly Change[]) {
    this.step('stageChanges');
    this.staged.set(provider, [...(this.staged.get(provider) ?? []), ...changes.map((change) => ({ poll: batchId, change }))]);
    return changes.length;
  }
  async publishStagedChanges(provider: string) {
    this.step('publishStagedChanges');
    return this.publish(provider);
  }
  async loadState(provider: string, eventIds: readonly string[]): Promise<LoadedState> {
    this.step('loadState');
    const fromStore = (ids: readonly string[]) => {
      const states = new Map<string, PrevState>();
      for (const id of ids) {
        const state = this.stored.get(id);
        if (state) states.set(id, state);
      }
      return states;
    };
    const memo = this.memory.get(provider);
    if (!memo) return { states: fromStore(eventIds), readFromStore: eventIds.length };
    const missing = eventIds.filter((id) => !memo.has(id));
    if (missing.length === 0) return { states: memo, readFromStore: 0 };
    return { states: new Map([...memo, ...fromStore(missing)]), readFromStore: missing.length };
  }
  async invalidateState(provider: string) {
    this.step('invalidateState');
    this.memory.delete(provider);
  }
  async saveState(provider: string, states: Map<string, PrevState>) {
    this.step('saveState');
    this.memory.set(provider, states);
  }
  async applyPlan(plan: IngestPlan): Promise<AppliedPlan> {
    this.step('applyPlan');
    const fresh = plan.history.filter((h) => !this.history.has(h._id));
    for (const h of fresh) this.history.set(h._id, h);
    for (const [id, state] of plan.next) this.stored.set(id, state);
    return {
      counts: {
        events: write(this.events, plan.events),
        markets: plan.counts.markets,
        prices: write(this.prices, plan.prices),
        liveEventData: write(this.liveData, plan.liveData),
        history: fresh.length,
        references: plan.regions.size + plan.competitions.size + plan.teams.size,
      },
      ms: { references: 0, events: 0, prices: 0, liveEventData: 0, history: 0 },
    };
  }
  async syncInsightStatuses(changes: IngestPlan['statusChanges']) {
    this.step('syncInsightStatuses');
    for (const c of changes) this.insightStatuses.set(c.eventId, c.status);
  }
  async bumpCacheVersions(scopes: readonly CacheScope[]) {
    this.step('bumpCacheVersions');
    this.cacheBumps.push(...scopes);
  }
  async publishEventWrites(writes: Pick<IngestPlan, 'events' | 'prices' | 'liveData'>) {
    this.step('publishEventWrites');
    this.listingPublishes.push([...new Set([...writes.events, ...writes.prices, ...writes.liveData].map((w) => w.id))]);
  }
  async readSlot(provider: string) {
    this.step('readSlot');
    return this.slots.get(provider) ?? null;
  }
  writing = new Set<string>();
  async markWriting(provider: string) {
    this.step('markWriting');
    this.writing.add(provider);
  }
  async clearWriting(provider: string) {
    this.step('clearWriting');
    this.writing.delete(provider);
  }
  async recordSlot(provider: string, state: string) {
    this.step('recordSlot');
    this.slots.set(provider, state);
  }
  async whilePaused<T>(provider: string, fn: () => Promise<T>): Promise<T> {
    this.step('whilePaused');
    while (this.locks.has(provider)) await new Promise((r) => setTimeout(r, 1));
    this.locks.add(provider);
    try {
      return await fn();
    } finally {
      this.locks.delete(provider);
    }
  }
  async withProviderLock<T>(provider: string, fn: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }> {
    this.step('withProviderLock');
    if (this.locks.has(provider)) return { held: false };
    this.locks.add(provider);
    try {
      return { held: true, value: await fn() };
    } finally {
      this.locks.delete(provider);
    }
  }
  async skipWorldClockTo(worldMs: number) {
    this.step('skipWorldClockTo');
    this.worldClockSkips.push(worldMs);
  }
  /** Events stored in the earlier layout (what a migration moves), as its outcome counts them. */
  earlierLayout: MigrationOutcome | null = null;
  async hasEventsOfEarlierLayout() {
    this.step('hasEventsOfEarlierLayout');
    return this.earlierLayout !== null;
  }
  async migrateEventsOfEarlierLayout() {
    this.step('migrateEventsOfEarlierLayout');
    const moved = this.earlierLayout ?? { events: 0, prices: 0, views: 0, markers: 0, snapshotsDropped: false, pricesPacked: 0 };
    this.earlierLayout = null;
    return moved;
  }
}
