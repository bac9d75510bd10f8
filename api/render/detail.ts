import { localize, sportById, type Locale, type LocalizedText } from '../../shared/domain/sports';
import type { EventLean } from '../../shared/platform/db/repositories/eventForms';
import type { LiveEventDataRow } from '../../shared/platform/db/repositories/events';
import { renderPick, renderRecommendation, type PickFields, type RecommendationFields } from './ai';
import { sportRef, renderLiveMarkets, type ListedEvent, type LiveMarketFields } from './events';
import { localizeDeep } from './localize';
import { renderMarkets } from './markets';

const STAT_FIELDS = ['homeGoals', 'awayGoals', 'homeGoalsFirstHalf', 'awayGoalsFirstHalf', 'homeCorners', 'awayCorners', 'homeYellowCards', 'awayYellowCards', 'homeRedCards', 'awayRedCards'] as const;

const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);

/** Everything the detail view reads besides the event itself. */
export interface DetailExtras {
  region: { competitions: { _id: number; name: LocalizedText }[]; events: number; availableSports: string[] };
  liveSnapshot: { liveMarkets: readonly LiveMarketFields[] } | null;
  liveEventData: LiveEventDataFields | null;
  insight: { analysisInsight?: unknown } | null;
  recommendations: readonly RecommendationFields[];
  pick: PickFields | null;
}

/** The event the detail view shows: a list form's fields and whether it was voided. */
export type DetailEvent = ListedEvent & Pick<EventLean, 'voided'>;

/** Detail stats: null before the event starts; counts (any may be null) once it has. */
export function detailStats(e: Pick<ListedEvent, 'status' | 'stats'>) {
  if (e.status === 'upcoming') return null;
  if (!e.stats && e.status !== 'live' && e.status !== 'completed') return null;
  return { ...Object.fromEntries(STAT_FIELDS.map((f) => [f, int(e.stats?.[f])])), phase: typeof e.stats?.phase === 'string' ? e.stats.phase : null };
}

/** The fields of an event's live data (LiveEventDataRow) the detail view shows. */
type LiveEventDataFields = Pick<LiveEventDataRow, 'eventId' | 'phaseSysname' | 'isLive' | 'liveDataJson' | (typeof STAT_FIELDS)[number]>;

export function renderLiveEventData(d: LiveEventDataFields) {
  return {
    eventId: String(d.eventId),
    ...Object.fromEntries(STAT_FIELDS.map((f) => [f, int(d[f])])),
    phaseSysname: typeof d.phaseSysname === 'string' ? d.phaseSysname : null,
    isLive: d.isLive === true,
    liveDataJson: d.liveDataJson && typeof d.liveDataJson === 'object' ? localizeDeep(d.liveDataJson, 'en') : {},
  };
}

function newsList(news: unknown, locale: Locale): unknown[] {
  if (news === null || news === undefined) return [];
  const list = Array.isArray(news) ? news : [news];
  return list.map((n) => localizeDeep(n, locale));
}

/** Detail form (GET /matches/{eventId}): the full event; `zone` is the one of the pick's commenceTime. */
export function renderDetailEvent(e: DetailEvent, x: DetailExtras, locale: Locale, zone: string) {
  const sport = sportById(e.sportId);
  const home = localize(e.homeTeam.name, locale);
  const away = localize(e.awayTeam.name, locale);
  const regionCaption = localize(e.region.name, locale);
  const markets = renderMarkets(e.markets, e._id, locale, undefined, { detail: true });
  return {
    id: e._id,
    startDateTime: e.startDateTime.toISOString(),
    status: e.status,
    voided: e.voided === true,
    views: e.views ?? 0,
    homeTeamId: e.homeTeam.id,
    homeTeam: { id: e.homeTeam.id, name: home, caption: home, regionId: e.homeTeam.regionId ?? null },
    awayTeamId: e.awayTeam.id,
    awayTeam: { id: e.awayTeam.id, name: away, caption: away, regionId: e.awayTeam.regionId ?? null },
    sportId: e.sportId,
    sport: { ...sportRef(e.sportId, locale), sysname: sport?.sysname ?? String(e.sportId) },
    competitionId: e.competitionId,
    competition: {
      id: e.competition.id,
      caption: localize(e.competition.name, locale),
      regionId: e.regionId,
      region: { id: e.region.id, caption: regionCaption },
    },
    regionId: e.regionId,
    region: {
      id: e.region.id,
      caption: regionCaption,
      _count: { competitions: x.region.competitions.length, events: x.region.events },
      availableSports: x.region.availableSports,
      competitions: x.region.competitions.map((c) => ({ id: c._id, caption: localize(c.name, locale) })),
    },
    metadata: {
      sportName: sport ? localize(sport.name, locale) : String(e.sportId),
      homeTeamName: home,
      awayTeamName: away,
      markets: [...new Set((e.markets ?? []).map((m) => m.betTypeSysname))],
    },
    markets,
    stats: detailStats(e),
    liveMarkets: e.status === 'live' ? renderLiveMarkets(x.liveSnapshot?.liveMarkets, locale) : [],
    liveEventData: x.liveEventData ? [renderLiveEventData(x.liveEventData)] : [],
    analysisInsight: localizeDeep(x.insight?.analysisInsight ?? x.pick?.analysisInsight ?? null, locale),
    eventNews: newsList(x.pick?.eventNews, locale),
    bettingRecommendations: x.recommendations.map((r) => renderRecommendation(r, locale)),
    featuredPick: x.pick ? renderPick(x.pick, locale, zone) : null,
  };
}
