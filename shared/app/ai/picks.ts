import { buildPicks, type PickCandidate } from '../../domain/ai/picks';
import { utcDayRange } from '../../domain/days';
import { commitPicks } from '../commitments/commit';
import type { AppContext } from '../context';
import { pickCreatedIntent } from '../webhooks/fanout';

/**
 * Rebuilds the featured picks of one UTC day from the current recommendations of its events that
 * have not started. Picks with a started leg are frozen (kept as they are, for settlement); the
 * others are replaced by the new set. Pick ids come from their legs, so the same inputs write
 * the same documents. Serialised per day across processes (the store's day lock).
 */
export async function rebuildPicksForDay(ctx: AppContext, day: string): Promise<{ picks: number; removed: number }> {
  const store = ctx.picks;
  return store.withDayLock(day, async () => {
    const at = ctx.clock.worldNow();
    const { gte: dayStart, lt: dayEnd } = utcDayRange(day);
    const from = at > dayStart ? at : dayStart;
    const insights = from < dayEnd ? await store.findUpcomingInsights(from, dayEnd) : [];
    const byEvent = new Map(insights.map((i) => [String(i._id), i]));
    const recIds = insights.flatMap((i) => i.recommendationIds ?? []);
    const [recs, events] = await Promise.all([recIds.length ? store.findRecommendations(recIds) : [], byEvent.size ? store.findEvents([...byEvent.keys()]) : []]);
    const eventById = new Map(events.filter((e) => e.status === 'upcoming' && e.startDateTime > at).map((e) => [String(e._id), e]));
    const candidates: PickCandidate[] = [];
    for (const r of recs) {
      const e = eventById.get(r.eventId);
      if (!e) continue;
      const insight = byEvent.get(r.eventId);
      candidates.push({
        rec: r,
        event: {
          id: String(e._id),
          homeTeam: { id: e.homeTeam.id, name: e.homeTeam.name },
          awayTeam: { id: e.awayTeam.id, name: e.awayTeam.name },
          competition: { id: e.competition.id, name: e.competition.name },
          competitionId: e.competitionId,
          regionId: e.regionId,
          status: e.status,
          startDateTime: e.startDateTime,
        },
        analysisInsight: insight?.analysisInsight ?? null,
        matchSimulation: insight?.matchSimulation ?? null,
      });
    }
    const existing = await store.findPicksOfDay(day);
    const byId = new Map(existing.map((p) => [String(p._id), p]));
    const frozen = existing.filter((p) => p.startsAt <= at);
    const firstOrder = frozen.reduce((m, p) => Math.max(m, p.featuredOrder), 0) + 1;
    const drafts = buildPicks(candidates, firstOrder);
    const keep = new Set(drafts.map((d) => d._id));
    const stale = existing.filter((p) => p.startsAt > at && !keep.has(String(p._id))).map((p) => String(p._id));
    const removed = stale.length ? await store.deleteUnstartedUnsettledPicks(stale, at) : 0;
    // Announced before they are written (docs/webhooks.md): the announcement waits for the pick,
    // and a crash between the two loses neither (the next rebuild writes it; the job finds it then).
    const created = drafts.filter((d) => !byId.has(d._id));
    if (created.length) await ctx.dispatch(created.map((d) => pickCreatedIntent(d._id)));
    for (const d of drafts) {
      const { _id, ...content } = d;
      // Most rebuilds change few picks: an identical one is not written again.
      const stored = byId.get(_id);
      if (stored && stored.startsAt > at && sameContent(content, stored)) continue;
      // Only a pick that has not started is (re)written; a started one with the same legs stays.
      await store.upsertPickUnlessStarted(_id, content, at);
    }
    // Every pick offered is committed once (keyed by its id, which its legs determine); one withdrawn later stays committed.
    await commitPicks(ctx, drafts, at);
    // Cached /v2/ai pages show the new picks.
    await ctx.cache.bump('ai');
    return { picks: drafts.length, removed };
  });
}

function sameContent(content: object, stored: object): boolean {
  const was = new Map(Object.entries(stored));
  return Object.entries(content).every(([k, v]) => JSON.stringify(v) === JSON.stringify(was.get(k)));
}
