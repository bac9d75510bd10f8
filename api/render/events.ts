import { marketType } from '../../shared/domain/markets/catalog';
import type { snapshotView } from '../../shared/domain/events/liveViews';
import { localize, sportById, type Locale, type LocalizedText } from '../../shared/domain/sports';
import type { EventListRow, LiveStats } from '../../shared/platform/db/repositories/eventForms';
import { localizeDeep, text } from './localize';
import { LIST_MARKET_TYPES, lineFromId, marketCaption, outcomeCaption, renderMarkets, TRENDING_MARKET_TYPES } from './markets';

/**
 * The fields of an event form the list, trending, live and detail forms read: the event document
 * (EventDoc) joined with its prices, views and, on the live forms, its live stats
 * (shared/platform/db/repositories/eventForms.ts).
 */
export type ListedEvent = Pick<
  EventListRow,
  '_id' | 'sportId' | 'competitionId' | 'regionId' | 'homeTeam' | 'awayTeam' | 'competition' | 'region' | 'startDateTime' | 'status' | 'stats' | 'markets' | 'views' | 'liveStats'
>;

const COUNT_FIELDS = ['homeGoals', 'awayGoals', 'homeCorners', 'awayCorners', 'homeYellowCards', 'awayYellowCards'] as const;
const CARD_FIELDS = ['homeRedCards', 'awayRedCards'] as const;

const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function pick<K extends string>(stats: Partial<Record<K, unknown>> | null | undefined, fields: readonly K[]): Record<string, number | null> {
  return Object.fromEntries(fields.map((f) => [f, int(stats?.[f])]));
}

export function sportRef(sportId: number, locale: Locale) {
  const sport = sportById(sportId);
  return { id: sportId, name: sport ? localize(sport.name, locale) : String(sportId) };
}

const teamRef = (t: ListedEvent['homeTeam'], locale: Locale) => ({ id: t.id, name: localize(t.name, locale) });
const captionRef = (r: { id: number; name: LocalizedText }, locale: Locale) => ({ id: r.id, caption: localize(r.name, locale) });

/** Final counts of a completed event in the list form (the contract's Stats); any count may be null. */
export function completedStats(stats: ListedEvent['stats']) {
  return { ...pick(stats, COUNT_FIELDS), phase: typeof stats?.phase === 'string' ? stats.phase : null };
}

/** List form (GET /matches): completed events carry stats; upcoming and live ones do not. */
export function renderListEvent(e: ListedEvent, locale: Locale) {
  return {
    id: e._id,
    startDateTime: e.startDateTime.toISOString(),
    status: e.status,
    homeTeamId: e.homeTeam.id,
    homeTeam: teamRef(e.homeTeam, locale),
    awayTeamId: e.awayTeam.id,
    awayTeam: teamRef(e.awayTeam, locale),
    sportId: e.sportId,
    sport: sportRef(e.sportId, locale),
    competitionId: e.competitionId,
    competition: captionRef(e.competition, locale),
    regionId: e.regionId,
    region: captionRef(e.region, locale),
    markets: renderMarkets(e.markets, e._id, locale, LIST_MARKET_TYPES),
    views: e.views ?? 0,
    ...(e.status === 'completed' ? { stats: completedStats(e.stats) } : {}),
  };
}

/** Trending form: exactly the contract's fields, soccer match result and over/under markets only. */
export function renderTrendingEvent(e: ListedEvent, locale: Locale) {
  const sport = sportRef(e.sportId, locale);
  return {
    id: e._id,
    competitionId: e.competitionId,
    startDateTime: e.startDateTime.toISOString(),
    status: e.status,
    views: e.views ?? 0,
    sport: { name: sport.name },
    homeTeam: teamRef(e.homeTeam, locale),
    awayTeam: teamRef(e.awayTeam, locale),
    competition: captionRef(e.competition, locale),
    region: captionRef(e.region, locale),
    markets: renderMarkets(e.markets, e._id, locale, TRENDING_MARKET_TYPES),
  };
}

function epochMillisText(v: unknown): string | null {
  if (v instanceof Date) return String(v.getTime());
  if (typeof v === 'number' && Number.isFinite(v)) return String(Math.trunc(v));
  if (typeof v === 'string' && /^\d+$/.test(v)) return v;
  if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return String(Date.parse(v));
  return null;
}

function isoText(v: unknown): string | null {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return new Date(v).toISOString();
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v).toISOString();
  return null;
}

/** A live bet item of the live stats (LiveStats): the renderer also takes one without some fields, or with its timestamp as an instant. */
export type LiveBetItemFields = Partial<Omit<NonNullable<LiveStats>['liveBetItems'][number], 'timestamp'>> & { timestamp?: unknown };

/** One live price inside the live stats, names localized from the market catalog. */
export function renderLiveBetItem(item: LiveBetItemFields, locale: Locale) {
  const sysname = item.marketSysname ?? '';
  const line = num(item.line) ?? lineFromId(item.betItemId) ?? lineFromId(item.marketId);
  const code = item.code ?? '';
  const price = num(item.price) ?? 0;
  return {
    betItemId: item.betItemId ?? '',
    marketSysname: sysname,
    marketCaption: marketCaption(sysname, locale, line, true, item.marketCaption),
    code,
    caption: outcomeCaption(marketType(sysname), code, line, locale, item.caption),
    price,
    priceChange: num(item.priceChange) ?? 0,
    isAvailable: item.isAvailable !== false,
    timestamp: epochMillisText(item.timestamp) ?? '0',
  };
}

/** The contract's flat live stats: always present on the live form, counts from the live feed. */
export function renderLiveStats(e: Pick<ListedEvent, '_id' | 'status' | 'stats' | 'liveStats'>, locale: Locale) {
  const s = e.liveStats;
  // liveStatsView spreads the counts in by name: read by name, a count it lacks is the event's own.
  const live: Readonly<Record<string, unknown>> = s ?? {};
  const counts = Object.fromEntries([...COUNT_FIELDS, ...CARD_FIELDS].map((f) => [f, int(live[f] !== undefined ? live[f] : e.stats?.[f])]));
  return {
    id: s ? s.id : e._id,
    ...counts,
    elapsedSeconds: int(s?.elapsedSeconds),
    phaseCaptionLong: text(s?.phaseCaptionLong, locale),
    phaseCaption: text(s?.phaseCaption, locale),
    referenceTime: isoText(s?.referenceTime),
    isLive: s ? s.isLive : e.status === 'live',
    isInPlay: s ? s.isInPlay : e.status === 'live',
    liveBetItems: (s?.liveBetItems ?? []).map((i) => renderLiveBetItem(i, locale)),
  };
}

/** Live form (GET /matches/live). */
export function renderLiveEvent(e: ListedEvent, locale: Locale) {
  return {
    id: e._id,
    startDateTime: e.startDateTime.toISOString(),
    status: e.status,
    competitionId: e.competitionId,
    sportId: e.sportId,
    regionId: e.regionId,
    views: e.views ?? 0,
    sport: sportRef(e.sportId, locale),
    homeTeam: teamRef(e.homeTeam, locale),
    awayTeam: teamRef(e.awayTeam, locale),
    competition: captionRef(e.competition, locale),
    region: captionRef(e.region, locale),
    stats: renderLiveStats(e, locale),
    markets: renderMarkets(e.markets, e._id, locale, LIST_MARKET_TYPES),
  };
}

type LiveMarket = NonNullable<ReturnType<typeof snapshotView>>['liveMarkets'][number];
type LiveMarketItem = LiveMarket['betItems'][number];

/** A market of a live-odds snapshot (shared/domain/events/liveViews.ts): the renderer also takes one without its line, or items without change and availability. */
export type LiveMarketFields = Pick<LiveMarket, 'marketId' | 'marketSysname' | 'marketCaption'> &
  Partial<Pick<LiveMarket, 'line'>> & { betItems?: readonly (Pick<LiveMarketItem, 'code' | 'price'> & Partial<Pick<LiveMarketItem, 'priceChange' | 'isAvailable'>>)[] };

/** Live markets of the live-odds endpoint and the detail view, display names localized. */
export function renderLiveMarkets(markets: readonly LiveMarketFields[] | undefined, locale: Locale) {
  return (markets ?? []).map((m) => {
    const line = num(m.line) ?? lineFromId(m.marketId);
    const type = marketType(m.marketSysname);
    return {
      marketId: m.marketId ?? null,
      marketSysname: m.marketSysname,
      marketCaption: text(m.marketCaption, locale),
      marketDisplayName: marketCaption(m.marketSysname, locale, line, true, m.marketCaption),
      line,
      betItems: (m.betItems ?? []).map((b) => ({
        code: b.code,
        translatedCaption: outcomeCaption(type, b.code, line, locale),
        price: b.price,
        priceChange: num(b.priceChange),
        isAvailable: b.isAvailable !== false,
      })),
    };
  });
}

export { localizeDeep };
