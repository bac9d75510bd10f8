import type { PickEventRow, PickInsightRow, PicksStore, StoredPickRow } from '../../../shared/app/ai/picksPorts';
import type { PickRecommendation } from '../../../shared/domain/ai/picks';

/**
 * A picks rebuild's store in memory (shared/app/ai/picksPorts.ts): picks written unless started,
 * deleted only where not started and not settled, and the day's lock held by one rebuild at a time.
 */
export class MemoryPicksStore implements PicksStore {
  insights: (PickInsightRow & { startDateTime: Date; status: string })[] = [];
  recommendations: PickRecommendation[] = [];
  events: PickEventRow[] = [];
  picks: (StoredPickRow & { featuredDate: string; settled?: boolean } & Record<string, unknown>)[] = [];
  /** Pick writes that reached the store, by id, in order. */
  written: string[] = [];
  /** The days whose lock is held now. */
  held = new Set<string>();
  /** Rebuilds that found their day's lock held (they waited). */
  waited = 0;

  async findUpcomingInsights(from: Date, until: Date) {
    return this.insights.filter((i) => i.status === 'upcoming' && i.startDateTime > from && i.startDateTime < until);
  }
  async findRecommendations(ids: readonly string[]) {
    return this.recommendations.filter((r) => ids.includes(r._id));
  }
  async findEvents(ids: readonly string[]) {
    return this.events.filter((e) => ids.includes(e._id));
  }
  async findPicksOfDay(day: string) {
    return this.picks.filter((p) => p.featuredDate === day).map((p) => ({ ...p }));
  }
  async deleteUnstartedUnsettledPicks(ids: readonly string[], at: Date) {
    const gone = this.picks.filter((p) => ids.includes(p._id) && p.startsAt > at && !p.settled);
    this.picks = this.picks.filter((p) => !gone.includes(p));
    return gone.length;
  }
  async upsertPickUnlessStarted(id: string, content: Record<string, unknown>, at: Date) {
    const i = this.picks.findIndex((p) => p._id === id);
    if (i >= 0 && this.picks[i].startsAt <= at) return;
    const next = { ...(i >= 0 ? this.picks[i] : {}), ...content, _id: id } as (typeof this.picks)[number];
    if (i >= 0) this.picks[i] = next;
    else this.picks.push(next);
    this.written.push(id);
  }
  async withDayLock<T>(day: string, fn: () => Promise<T>): Promise<T> {
    while (this.held.has(day)) {
      this.waited++;
      await new Promise((r) => setTimeout(r, 1));
    }
    this.held.add(day);
    try {
      return await fn();
    } finally {
      this.held.delete(day);
    }
  }
}
