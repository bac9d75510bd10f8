import type { OpenRecommendation, PickEventRow, PickInsightRow, PicksStore, StoredPickRow } from '../../../shared/app/ai/picksPorts';
import type { PickRecommendation } from '../../../shared/domain/ai/picks';

/**
 * A picks rebuild's store in memory (shared/app/ai/picksPorts.ts): picks written unless started,
 * deleted only where not started and not settled, and the day's lock held by one rebuild at a time.
 * Its read model of open recommendations goes by the insights' own status and start, as last
 * analysed: it may lag the events (one called off since still looks open), as the real one may.
 */
export class MemoryPicksStore implements PicksStore {
  insights: (PickInsightRow & { startDateTime: Date; status: string; recommendationIds: string[] })[] = [];
  recommendations: PickRecommendation[] = [];
  events: PickEventRow[] = [];
  picks: (StoredPickRow & { featuredDate: string; settled?: boolean } & Record<string, unknown>)[] = [];
  /** Pick writes that reached the store, by id, in order. */
  written: string[] = [];
  /** The days whose lock is held now. */
  held = new Set<string>();
  /** Rebuilds that found their day's lock held (they waited). */
  waited = 0;
  /** Every id list the rebuild asked of the events and insights (it reads only the few it draws from). */
  lookups: string[][] = [];

  async findOpenRecommendations(at: Date, from: Date, until: Date): Promise<OpenRecommendation[]> {
    return this.insights
      .filter((i) => i.status === 'upcoming' && i.startDateTime > at && i.startDateTime > from && i.startDateTime < until)
      .flatMap((i) => this.recommendations.filter((r) => i.recommendationIds.includes(r._id)).map((rec) => ({ rec, startAt: i.startDateTime })));
  }
  async findEvents(ids: readonly string[]) {
    this.lookups.push([...ids]);
    return this.events.filter((e) => ids.includes(e._id));
  }
  async findInsightBodies(ids: readonly string[]) {
    this.lookups.push([...ids]);
    return this.insights.filter((i) => ids.includes(i._id)).map(({ _id, analysisInsight, matchSimulation }) => ({ _id, analysisInsight, matchSimulation }));
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
