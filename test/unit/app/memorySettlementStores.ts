import type { CorrectionEventRow, CorrectionStore, CorrectionWrite, LiveDataRow, RollupStore, RollupWrite, SettledBetRow, StoredCounts, StoredRollupRow } from '../../../shared/app/settlement/ports';
import type { Change } from '../../../shared/domain/feed/changes';
import { betDay } from '../../../shared/domain/settlement/state';

/**
 * The performance rollups in memory (shared/app/settlement/ports.ts): the settled bets they count,
 * and rollups written by compare-and-set on their revision (a write over a revision that moved on
 * writes nothing of its batch, as a conflicting bulk write does not count as written).
 */
export class MemoryRollupStore implements RollupStore {
  bets: (SettledBetRow & { settled?: boolean })[] = [];
  rollups: StoredRollupRow[] = [];
  /** Runs before each write (e.g. another writer's refresh landing meanwhile). */
  beforeWrite: () => void = () => undefined;
  writes = 0;

  async findSettledBetsOfDays(days: readonly string[]) {
    return this.bets.filter((b) => days.includes(betDay(b.eventStartAt)));
  }
  async findAllSettledBets() {
    return [...this.bets];
  }
  async findRollups(filter: { days?: readonly string[] }) {
    return this.rollups.filter((r) => !filter.days || filter.days.includes(r.day)).map((r) => ({ ...r }));
  }
  async writeRollups(writes: readonly RollupWrite[]): Promise<'written' | 'conflict'> {
    this.beforeWrite();
    const current = (id: string) => this.rollups.find((r) => r._id === id);
    if (writes.some((w) => (current(w.id)?.rev ?? null) !== w.expectRev)) return 'conflict';
    for (const w of writes) {
      const next = { ...current(w.id), ...w.set, _id: w.id } as StoredRollupRow;
      this.rollups = [...this.rollups.filter((r) => r._id !== w.id), next];
      this.writes++;
    }
    return 'written';
  }
}

/** A result correction's documents in memory: the event (its version-conditional write), its live data, the feed and the event locks. */
export class MemoryCorrectionStore implements CorrectionStore {
  events: (CorrectionEventRow & { dataSource: string; resultOverride?: CorrectionWrite['resultOverride'] })[] = [];
  liveData: LiveDataRow[] = [];
  changes: Change[] = [];
  locks = new Set<string>();
  /** Runs before the event's conditional write (e.g. ingest moving the version meanwhile). */
  beforeEventWrite: () => void = () => undefined;

  async findEventProvider(eventId: string) {
    return this.events.find((e) => e._id === eventId)?.dataSource ?? null;
  }
  async findEvent(eventId: string) {
    const e = this.events.find((x) => x._id === eventId);
    return e ? { ...e, stats: e.stats ? { ...e.stats } : e.stats } : null;
  }
  async findLiveData(eventId: string) {
    const l = this.liveData.find((x) => x.eventId === eventId);
    return l ? { ...l } : null;
  }
  async setLiveDataFields(id: string, fields: StoredCounts) {
    const l = this.liveData.find((x) => x._id === id);
    if (l) Object.assign(l, fields);
  }
  async writeEventResult(eventId: string, expectedVersion: number | null | undefined, w: CorrectionWrite) {
    this.beforeEventWrite();
    const e = this.events.find((x) => x._id === eventId);
    if (!e || (e.resultVersion ?? 0) !== (expectedVersion ?? 0)) return { matched: false };
    e.resultVersion = w.resultVersion;
    e.resultOverride = w.resultOverride;
    if (w.stats && 'whole' in w.stats) e.stats = { ...w.stats.whole };
    else if (w.stats) e.stats = { ...e.stats, ...w.stats.fields };
    if (w.voided !== undefined) e.voided = w.voided;
    return { matched: true };
  }
  async appendChanges(_batchId: string, changes: readonly Change[]) {
    this.changes.push(...changes);
  }
  async withEventLock<T>(eventId: string, fn: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }> {
    if (this.locks.has(eventId)) return { held: false };
    this.locks.add(eventId);
    try {
      return { held: true, value: await fn() };
    } finally {
      this.locks.delete(eventId);
    }
  }
}
