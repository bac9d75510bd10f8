import { marketType } from '../../shared/domain/markets/catalog';
import { localize, sportById, type Locale, type LocalizedText } from '../../shared/domain/sports';
import { localizeDeep, text } from './localize';
import type { StoredMarket } from '../../shared/domain/ingest/stored';
import { LIST_MARKET_TYPES, lineFromId, marketCaption, outcomeCaption, renderMarkets, TRENDING_MARKET_TYPES } from './markets';

/** The stored event fields the read forms use (shared/platform/db/models/event.ts, read with lean()). */
export interface StoredEvent {
  _id: string;
  sportId: number;
  competitionId: number;
  regionId: number;
  homeTeam: { id: number; name: LocalizedText; regionId?: number | null };
  awayTeam: { id: number; name: LocalizedText; regionId?: number | null };
  competition: { id: number; name: LocalizedText };
  region: { id: number; name: LocalizedText };
  startDateTime: Date;
  status: string;
  voided?: boolean | null;
  views?: number | null;
  markets?: StoredMarket[];
  stats?: Record<string, unknown> | null;
  liveStats?: Record<string, unknown> | null;
}

const COUNT_FIELDS = ['homeGoals', 'awayGoals', 'homeCorners', 'awayCorners', 'homeYellowCards', 'awayYellowCards'] as const;
const CARD_FIELDS = ['homeRedCards', 'awayRedCards'] as const;

const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function pick(stats: Record<string, unknown> | null | undefined, fields: readonly string[]): Record<string, number | null> {
  return Object.fromEntries(fields.map((f) => [f, int(stats?.[f])]));
}

export function sportRef(sportId: number, locale: Locale) {
  const sport = sportById(sportId);
  return { id: sportId, name: sport ? localize(sport.name, locale) : String(sportId) };
}

const teamRef = (t: StoredEvent['homeTeam'], locale: Locale) => ({ id: t.id, name: localize(t.name, locale) });
const captionRef = (r: { id: number; name: LocalizedText }, locale: Locale) => ({ id: r.id, caption: localize(r.name, locale) });

/** Final counts of a completed event in the list form (the contract's Stats); any count may be null. */
export function completedStats(stats: Record<string, unknown> | null | undefined) {
  return { ...pick(stats, COUNT_FIELDS), phase: typeof stats?.phase === 'string' ? stats.phase : null };
}

/** List form (GET /matches): completed events carry stats; upcoming and live ones do not. */
export function renderListEvent(e: StoredEvent, locale: Locale) {
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
export function renderTrendingEvent(e: StoredEvent, locale: Locale) {
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

/** One live price inside the live stats, names localized from the market catalog. */
export function renderLiveBetItem(item: Record<string, unknown>, locale: Locale) {
  // The feed's ids and codes are strings (a number is accepted as its text).
  const sysname = String((item.marketSysname as string | undefined) ?? '');
  const line = num(item.line) ?? lineFromId(item.betItemId as string) ?? lineFromId(item.marketId as string);
  const code = String((item.code as string | number | undefined) ?? '');
  const price = num(item.price) ?? 0;
  return {
    betItemId: String((item.betItemId as string | number | undefined) ?? ''),
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
export function renderLiveStats(e: StoredEvent, locale: Locale) {
  const s = e.liveStats ?? {};
  const counts = Object.fromEntries([...COUNT_FIELDS, ...CARD_FIELDS].map((f) => [f, int(s[f] !== undefined ? s[f] : e.stats?.[f])]));
  return {
    id: typeof s.id === 'string' ? s.id : e._id,
    ...counts,
    elapsedSeconds: int(s.elapsedSeconds),
    phaseCaptionLong: text(s.phaseCaptionLong, locale),
    phaseCaption: text(s.phaseCaption, locale),
    referenceTime: isoText(s.referenceTime),
    isLive: typeof s.isLive === 'boolean' ? s.isLive : e.status === 'live',
    isInPlay: typeof s.isInPlay === 'boolean' ? s.isInPlay : e.status === 'live',
    liveBetItems: Array.isArray(s.liveBetItems) ? s.liveBetItems.map((i) => renderLiveBetItem(i as Record<string, unknown>, locale)) : [],
  };
}

/** Live form (GET /matches/live). */
export function renderLiveEvent(e: StoredEvent, locale: Locale) {
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

/** A stored live-odds market (LiveOddsSnapshot.liveMarkets[]). */
export interface StoredLiveMarket {
  marketId?: string | null;
  marketSysname: string;
  marketCaption?: unknown;
  line?: number | null;
  betItems?: { code: string; caption?: unknown; price: number; priceChange?: number | null; isAvailable?: boolean }[];
}

/** Live markets of the live-odds endpoint and the detail view, display names localized. */
export function renderLiveMarkets(markets: readonly StoredLiveMarket[] | undefined, locale: Locale) {
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
        translatedCaption: outcomeCaption(type, b.code, line, locale, b.caption),
        price: b.price,
        priceChange: num(b.priceChange),
        isAvailable: b.isAvailable !== false,
      })),
    };
  });
}

export { localizeDeep };
