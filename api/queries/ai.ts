import { worldNow } from '../../shared/platform/clock/worldClock';
import { DateTime } from 'luxon';
import { normalizeName } from '../../shared/domain/ai/selection';
import { findFeaturedPicks, findInsightsBatchByStart, type FeaturedPicksFilter, type InsightsFilter } from '../../shared/platform/db/repositories/ai';
import { findEventStatusesByIds } from '../../shared/platform/db/repositories/events';
import { currentOpportunityRecommendations } from '../../shared/platform/opportunities/store';
import { recommendationsPage } from '../../shared/platform/recommendations/store';
import type { RowFilter } from '../../shared/domain/recommendations/rows';
import { currentListing } from '../../shared/platform/listing/store';
import { analysedEvents, insightsOf } from '../../shared/platform/insights/store';
import type { Infer } from '../routes/spec';
import type { aiResponses, bettingRecommendationsQuery, featuredPicksQuery, processedInsightsQuery, valueOpportunitiesQuery } from '../schemas/ai';
import { renderInsight, renderPick, renderRecommendation } from '../render/ai';

/**
 * The reads of /v2/ai: what the AI worker stored; nothing here computes a model. Every filter value
 * reaches MongoDB as a validated scalar (numbers, enums, patterned strings), never an operator.
 */

const CLOSED_STATUSES = ['completed', 'postponed', 'cancelled'];

type Body<K extends keyof typeof aiResponses> = Infer<(typeof aiResponses)[K]>;

export async function featuredPicks(q: Infer<typeof featuredPicksQuery>): Promise<Body<'featuredPicks'>> {
  const today = DateTime.now().setZone(q.timezone).startOf('day');
  const tomorrow = today.plus({ days: 1 });
  let filter: FeaturedPicksFilter;
  if (q.today && q.tomorrow) filter = { from: today.toJSDate(), until: tomorrow.plus({ days: 1 }).toJSDate() };
  else if (q.today) filter = { from: today.toJSDate(), until: tomorrow.toJSDate() };
  else if (q.tomorrow) filter = { from: tomorrow.toJSDate(), until: tomorrow.plus({ days: 1 }).toJSDate() };
  else filter = { from: today.toJSDate() };
  if (q.regionId) filter.regionId = Number(q.regionId);
  if (q.competitionId) filter.competitionId = Number(q.competitionId);
  const picks = await findFeaturedPicks(filter, q.limit);
  return { data: picks.map((p) => renderPick(p, q.locale, q.timezone)) };
}

export async function processedInsights(q: Infer<typeof processedInsightsQuery>): Promise<Body<'processedInsights'>> {
  const statuses: string[] = [...new Set(q.status)];
  // Upcoming and live read soonest first; a list with finished events reads most recent first.
  const direction = statuses.some((s) => CLOSED_STATUSES.includes(s)) ? -1 : 1;
  if (!q.eventId && !q.teamNames) return insightsByListing(q, statuses, direction);
  // A stored status can only lag behind the event's (upcoming -> live -> finished): also read
  // the earlier ones, then keep what the events' current status allows.
  const stored = new Set(statuses);
  if (statuses.some((s) => s !== 'upcoming')) stored.add('upcoming');
  if (statuses.some((s) => CLOSED_STATUSES.includes(s))) stored.add('live');
  const filter: InsightsFilter = { statuses: [...stored], eventId: q.eventId, teamSearch: q.teamNames?.map(normalizeName) };
  // The insight's status is refreshed by the worker; the event is the authority, so each page
  // is checked against the events' current status (and topped up from the next page).
  const out: ReturnType<typeof renderInsight>[] = [];
  const batch = Math.max(10, 2 * q.limit);
  for (let skip = 0, round = 0; out.length < q.limit && round < 5; skip += batch, round++) {
    const insights = await findInsightsBatchByStart(filter, direction, skip, batch);
    if (insights.length === 0) break;
    const events = await findEventStatusesByIds(insights.map((i) => i._id));
    const current = new Map(events.map((e) => [String(e._id), e.status]));
    for (const i of insights) {
      const status = current.get(String(i._id)) ?? i.status;
      if (statuses.includes(status) && out.length < q.limit) out.push(renderInsight(i, q.locale, q.timezone, status));
    }
    if (insights.length < batch) break;
  }
  return { data: out };
}

/**
 * Without an event or team filter, the events come from the listing (their current status, in
 * start order), those the AI analysed from the insights read model, and their bodies from memory
 * or by id: no scan of every insight stored, no lookup of an event without one.
 */
async function insightsByListing(q: Infer<typeof processedInsightsQuery>, statuses: string[], direction: 1 | -1): Promise<Body<'processedInsights'>> {
  const wanted = new Set(statuses);
  let rows = (await currentListing()).filter(([, r]) => wanted.has(r.st));
  if (direction === -1) rows = [...rows].sort((a, b) => b[1].t - a[1].t || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const analysed = await analysedEvents(rows);
  const out: ReturnType<typeof renderInsight>[] = [];
  // A model's event without a stored insight (none today: insights are never deleted) is passed over.
  for (let from = 0; out.length < q.limit && from < analysed.length;) {
    const window = analysed.slice(from, from + q.limit - out.length);
    from += window.length;
    const insights = await insightsOf(window.map(([id]) => id));
    for (const [id, row] of window) {
      const insight = insights.get(id);
      if (insight) out.push(renderInsight(insight, q.locale, q.timezone, row.st));
    }
  }
  return { data: out };
}

/** `defaultMinEdge`: what a query without minEdge asks (AI_MIN_EDGE: every recommendation written). */
export async function valueOpportunities(q: Infer<typeof valueOpportunitiesQuery>, defaultMinEdge: number): Promise<Body<'valueOpportunities'>> {
  const minEdge = q.minEdge ?? defaultMinEdge;
  const all = (await currentOpportunityRecommendations(worldNow())).filter((r) => r.edgePercentage >= minEdge && (!q.confidence || r.confidence === q.confidence));
  const averageEdge = all.length ? all.reduce((s, r) => s + r.edgePercentage, 0) / all.length : 0;
  return {
    opportunities: all.slice(0, q.limit).map((r) => renderRecommendation(r, q.locale)),
    summary: {
      totalOpportunities: all.length,
      averageEdge: Math.round(averageEdge * 100) / 100,
      highConfidence: all.filter((r) => r.confidence === 'High').length,
    },
    minEdge,
  };
}

export async function bettingRecommendations(q: Infer<typeof bettingRecommendationsQuery>): Promise<Body<'bettingRecommendations'>> {
  const filter: RowFilter = { settled: q.settled, result: q.result || undefined, eventId: q.eventId || undefined, confidence: q.confidence || undefined };
  // The read model the AI worker and settlement keep: no count or sort of the collection per page.
  const { count, docs } = await recommendationsPage(filter, q.page, q.limit);
  return { data: docs.map((r) => renderRecommendation(r, q.locale)), count, page: q.page, limit: q.limit };
}
