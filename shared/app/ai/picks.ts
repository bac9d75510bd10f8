import { bestPerEventRanked, buildPicks, eventsDrawnFrom, type PickCandidate, type PickRecommendation } from '../../domain/ai/picks';
import { utcDayRange } from '../../domain/days';
import { commitPicks } from '../commitments/commit';
import type { AppContext } from '../context';
import { pickCreatedIntent } from '../webhooks/fanout';
import type { OpenRecommendation, PickEventRow, PickInsightRow, PicksStore } from './picksPorts';

/**
 * Rebuilds the featured picks of one UTC day from the current recommendations of its events that
 * have not started. Picks with a started leg are frozen (kept as they are, for settlement); the
 * others are replaced by the new set. Pick ids come from their legs, so the same inputs write
 * the same documents. Serialised per day across processes (the store's day lock).
 *
 * The candidates come from a read model (the current recommendations of the events still to
 * start), so a rebuild reads no list of the day's insights, recommendations or events from the
 * store: only the few best-ranked events, whose stored state decides (one the model still
 * thinks open, but called off or moved, gives way to the next), and their insights.
 */
export async function rebuildPicksForDay(ctx: AppContext, day: string): Promise<{ picks: number; removed: number }> {
  const store = ctx.picks;
  return store.withDayLock(day, async () => {
    const at = ctx.clock.worldNow();
    const { gte: dayStart, lt: dayEnd } = utcDayRange(day);
    const from = at > dayStart ? at : dayStart;
    const open = from < dayEnd ? await store.findOpenRecommendations(at, from, dayEnd) : [];
    const candidates = await drawnCandidates(
      store,
      bestPerEventRanked(open, (o) => o.rec.eventId),
      (e) => e.status === 'upcoming' && e.startDateTime > from && e.startDateTime < dayEnd,
    );
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

/**
 * The best-ranked events' candidates whose stored event still qualifies, read a few at a time
 * until the picks have all they draw from (eventsDrawnFrom), with the insights they show.
 */
async function drawnCandidates(store: PicksStore, ranked: readonly OpenRecommendation[], qualifies: (e: PickEventRow) => boolean): Promise<PickCandidate[]> {
  const need = eventsDrawnFrom();
  const drawn: { rec: PickRecommendation; event: PickEventRow }[] = [];
  for (let i = 0; i < ranked.length && drawn.length < need; i += need) {
    const part = ranked.slice(i, i + need);
    const events = new Map((await store.findEvents(part.map((o) => o.rec.eventId))).map((e) => [String(e._id), e]));
    for (const o of part) {
      const e = events.get(o.rec.eventId);
      if (e && qualifies(e) && drawn.length < need) drawn.push({ rec: o.rec, event: e });
    }
  }
  const insights = drawn.length ? new Map((await store.findInsightBodies(drawn.map((d) => d.rec.eventId))).map((i) => [String(i._id), i])) : new Map<string, PickInsightRow>();
  return drawn.map(({ rec, event: e }) => ({
    rec,
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
    analysisInsight: insights.get(rec.eventId)?.analysisInsight ?? null,
    matchSimulation: insights.get(rec.eventId)?.matchSimulation ?? null,
  }));
}

function sameContent(content: object, stored: object): boolean {
  const was = new Map(Object.entries(stored));
  return Object.entries(content).every(([k, v]) => JSON.stringify(v) === JSON.stringify(was.get(k)));
}
