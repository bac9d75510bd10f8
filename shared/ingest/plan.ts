import type { AnyBulkWriteOperation, Document } from 'mongodb';
import type { CacheScope } from '../cache/versions';
import { competitionName, complete, regionId, regionName, teamName } from '../i18n/names';
import { phaseText } from '../i18n/phases';
import { betItemId, lineText, marketId, marketType } from '../markets/catalog';
import { searchName, teamId } from '../providers/ids';
import type { FeedEvent, FeedLiveStats, FeedOdds, FeedResult, FeedStatus } from '../providers/types';
import { LOCALES, type LocalizedText } from '../sports';
import type { EventStats } from '../stats';
import { closingAtKickoff } from './closing';

/**
 * Pure: turns one poll's feed and the stored state of its events into the writes that bring
 * MongoDB up to date, plus the jobs and cache invalidations those writes imply. Nothing here
 * touches a database, so the rules (what changed, what settles, what the AI must see) are
 * tested as plain functions.
 */

export interface StoredBetItem {
  id: string;
  code: string;
  price: number;
  isAvailable: boolean;
  bookPrices?: Record<string, number>;
}

export interface StoredMarket {
  id: string;
  betTypeSysname: string;
  line: number | null;
  betItems: StoredBetItem[];
}

type StoredStats = EventStats & { phase?: string | null };

/** The stored fields of an event the planner compares against (everything but liveStats and views). */
export interface PrevEvent {
  _id: string;
  status: string;
  voided?: boolean;
  startedAt?: Date | null;
  endedAt?: Date | null;
  startDateTime?: Date;
  stats?: StoredStats | null;
  resultVersion?: number;
  /** An operator corrected the result: the feed's results no longer apply to this event. */
  resultOverride?: unknown;
  analysisVersion?: number;
  /** The analysisVersion last asked of the AI worker, and the world time it was asked. */
  analysisRequestedVersion?: number;
  analysisRequestedAt?: Date | null;
  markets?: StoredMarket[];
  lineups?: unknown;
  sportId?: number;
  competitionId?: number;
  regionId?: number;
  homeTeam?: unknown;
  awayTeam?: unknown;
  competition?: unknown;
  region?: unknown;
  priority?: number;
  providerEventId?: string;
}

export interface FeedBatch {
  provider: string;
  /** The instant the feed describes (simulated time for the simulated provider). */
  capturedAt: Date;
  events: FeedEvent[];
  /** null when that call failed this poll: stored data is kept as it is. */
  odds: Map<string, FeedOdds> | null;
  live: Map<string, FeedLiveStats> | null;
  results: Map<string, FeedResult> | null;
}

export interface HistoryRow {
  betItemId: string;
  eventId: string;
  dataSource: string;
  price: number;
  at: Date;
}

/** A bulk write on a collection whose _id is ours (string or number), not an ObjectId. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WriteOp = AnyBulkWriteOperation<any>;

export interface IngestPlan {
  eventOps: WriteOp[];
  liveDataOps: WriteOp[];
  snapshotOps: WriteOp[];
  history: HistoryRow[];
  competitions: Map<number, Document>;
  regions: Map<number, Document>;
  teams: Map<number, Document>;
  settle: { eventId: string; resultVersion: number }[];
  /** Upcoming events whose AI inputs changed: each gets an analysis (the only ones the model prices). */
  analyze: { eventId: string; version: number }[];
  /**
   * Events that left `upcoming` (or changed status after): their insight follows the status, and
   * one that ended before its kickoff (cancelled, postponed) leaves its day's featured picks.
   */
  statusChanges: { eventId: string; status: string; beforeKickoff: boolean; startDateTime: Date }[];
  /** Page-cache scopes whose data this write changes (shared/cache/versions.ts). */
  changed: Set<CacheScope>;
  counts: { events: number; inserted: number; updated: number; live: number; statusChanges: number; priceChanges: number; markets: number };
}

const STAT_KEYS = [
  'homeGoals',
  'awayGoals',
  'homeGoalsFirstHalf',
  'awayGoalsFirstHalf',
  'homeCorners',
  'awayCorners',
  'homeYellowCards',
  'awayYellowCards',
  'homeRedCards',
  'awayRedCards',
] as const satisfies readonly (keyof EventStats)[];

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Consensus of the books: their median price; with an even count the lower middle, a price some book really offers. */
export function consensusPrice(prices: readonly (number | null)[]): number | null {
  const q = prices.filter((p): p is number => typeof p === 'number' && p >= 1).sort((a, b) => a - b);
  if (q.length === 0) return null;
  return q[Math.floor((q.length - 1) / 2)];
}

export function settleable(status: string | undefined, startedAt: Date | null | undefined): boolean {
  return status === 'completed' || (status === 'postponed' && Boolean(startedAt));
}

function sameStats(a: Partial<EventStats> | null | undefined, b: Partial<EventStats> | null | undefined): boolean {
  return STAT_KEYS.every((k) => (a?.[k] ?? null) === (b?.[k] ?? null));
}

const sameDate = (a: Date | null | undefined, b: Date | null | undefined) => (a ? a.getTime() : null) === (b ? new Date(b).getTime() : null);
/** Structural equality of plain JSON-like values, without serializing (runs per event per poll). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

function sameBookPrices(a: Record<string, number> | undefined, b: Record<string, number> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => a![k] === b?.[k]);
}

function sameMarkets(a: StoredMarket[], b: StoredMarket[] | undefined): boolean {
  if (!b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.id !== y.id || x.betItems.length !== y.betItems.length) return false;
    for (let j = 0; j < x.betItems.length; j++) {
      const p = x.betItems[j];
      const q = y.betItems[j];
      if (p.id !== q.id || p.price !== q.price || p.isAvailable !== q.isAvailable || !sameBookPrices(p.bookPrices, q.bookPrices)) return false;
    }
  }
  return true;
}

function consensusChanged(a: StoredMarket[], prev: Map<string, StoredBetItem>): boolean {
  for (const m of a) {
    for (const it of m.betItems) {
      const p = prev.get(it.id);
      if (!p || p.price !== it.price || p.isAvailable !== it.isAvailable) return true;
    }
  }
  return false;
}

const searchNamesCache = new Map<string, string[]>();
function searchNames(name: LocalizedText): string[] {
  const k = `${name.en}|${name.es}|${name.pt}`;
  let v = searchNamesCache.get(k);
  if (!v) {
    v = [...new Set(LOCALES.map((l) => searchName(name[l] ?? name.en)).filter(Boolean))];
    searchNamesCache.set(k, v);
  }
  return v;
}

/** Stored markets from the feed's odds; items no book quotes keep their last price, unavailable. */
function itemsOf(markets: StoredMarket[] | undefined): Map<string, StoredBetItem> {
  const out = new Map<string, StoredBetItem>();
  for (const m of markets ?? []) for (const it of m.betItems) out.set(it.id, it);
  return out;
}

export function buildMarkets(sportId: number, odds: FeedOdds, prev: StoredMarket[] | undefined, prevItems: Map<string, StoredBetItem> = itemsOf(prev)): StoredMarket[] {
  const out: StoredMarket[] = [];
  const seen = new Set<string>();
  for (const m of odds.markets) {
    const type = marketType(m.betTypeSysname);
    if (!type || type.sportId !== sportId) continue;
    const mid = marketId(odds.eventId, m.betTypeSysname, m.line);
    if (seen.has(mid)) continue;
    seen.add(mid);
    const betItems: StoredBetItem[] = [];
    for (const it of m.items) {
      const id = betItemId(mid, it.code);
      const bookPrices: Record<string, number> = {};
      it.prices.forEach((p, i) => {
        if (typeof p === 'number' && p >= 1) bookPrices[odds.bookmakers[i]] = p;
      });
      let price = it.price ?? consensusPrice(it.prices);
      let isAvailable = !it.suspended && price !== null;
      if (price === null) {
        const p = prevItems.get(id);
        if (!p) continue;
        price = p.price;
        isAvailable = false;
      }
      betItems.push({ id, code: it.code, price, isAvailable, bookPrices });
    }
    if (betItems.length) out.push({ id: mid, betTypeSysname: m.betTypeSysname, line: m.line, betItems });
  }
  // Markets the source stopped quoting (a moved line) stay, closed, so their ids keep resolving.
  for (const m of prev ?? []) {
    if (!seen.has(m.id)) out.push({ ...m, betItems: m.betItems.map((it) => ({ ...it, isAvailable: false })) });
  }
  return out;
}

function closeMarkets(markets: StoredMarket[] | undefined): StoredMarket[] {
  return (markets ?? []).map((m) => ({ ...m, betItems: m.betItems.map((it) => ({ ...it, isAvailable: false })) }));
}

function itemCaption(sysname: string, code: string, line: number | null): string {
  const type = marketType(sysname);
  const outcome = type?.outcomes.find((o) => o.code === code)?.caption.en ?? code;
  return type && line !== null && (type.kind === 'total' || type.kind === 'handicap') ? `${outcome} ${lineText(type.kind, line, code)}` : outcome;
}

function liveBetItems(markets: StoredMarket[], prevItems: Map<string, StoredBetItem>, at: Date) {
  const ts = String(at.getTime());
  return markets.flatMap((m) =>
    m.betItems.map((it) => ({
      betItemId: it.id,
      marketId: m.id,
      marketSysname: m.betTypeSysname,
      marketCaption: marketType(m.betTypeSysname)?.name.en ?? m.betTypeSysname,
      code: it.code,
      caption: itemCaption(m.betTypeSysname, it.code, m.line),
      line: m.line,
      price: it.price,
      priceChange: prevItems.has(it.id) ? round2(it.price - prevItems.get(it.id)!.price) : 0,
      isAvailable: it.isAvailable,
      timestamp: ts,
    })),
  );
}

/** One live-odds snapshot per dataSource: the provider's consensus, then each bookmaker. */
function snapshots(provider: string, eventId: string, markets: StoredMarket[], prevItems: Map<string, StoredBetItem>, capturedAt: Date, now: Date): WriteOp[] {
  const sources = new Set<string>();
  for (const m of markets) for (const it of m.betItems) for (const b of Object.keys(it.bookPrices ?? {})) sources.add(b);
  const build = (ds: string | null) =>
    markets
      .map((m) => ({
        marketId: m.id,
        marketSysname: m.betTypeSysname,
        marketCaption: marketType(m.betTypeSysname)?.name.en ?? m.betTypeSysname,
        line: m.line,
        betItems: m.betItems.flatMap((it) => {
          const price = ds === null ? it.price : it.bookPrices?.[ds];
          if (price === undefined) return [];
          const before = ds === null ? prevItems.get(it.id)?.price : prevItems.get(it.id)?.bookPrices?.[ds];
          return [{ betItemId: it.id, code: it.code, price, priceChange: before === undefined ? 0 : round2(price - before), isAvailable: it.isAvailable }];
        }),
      }))
      .filter((m) => m.betItems.length > 0);
  const op = (ds: string, liveMarkets: unknown[]): WriteOp => ({
    updateOne: {
      filter: { _id: `${eventId}|${ds}` },
      update: { $set: { eventId, dataSource: ds, provider, capturedAt, stale: false, liveMarkets, updatedAt: now }, $setOnInsert: { createdAt: now } },
      upsert: true,
    },
  });
  return [op(provider, build(null)), ...[...sources].map((ds) => op(ds, build(ds)))];
}

/** What the steps of one event's plan share: the feed's event, its stored state and the fields its write sets. */
interface EventStep {
  plan: IngestPlan;
  batch: FeedBatch;
  now: Date;
  e: FeedEvent;
  prev: PrevEvent | undefined;
  ended: boolean;
  /** The event's `$set` so far. */
  set: Record<string, unknown>;
  options: PlanOptions;
}

/** How often a price move asks for a new analysis (ms of world time; 0 = every move): see analysisDue. */
export interface PlanOptions {
  reanalyzeMs: number;
}

export function planIngest(batch: FeedBatch, previous: Map<string, PrevEvent>, now: Date, options: PlanOptions = { reanalyzeMs: 0 }): IngestPlan {
  const plan: IngestPlan = {
    eventOps: [],
    liveDataOps: [],
    snapshotOps: [],
    history: [],
    competitions: new Map(),
    regions: new Map(),
    teams: new Map(),
    settle: [],
    analyze: [],
    statusChanges: [],
    changed: new Set(),
    counts: { events: batch.events.length, inserted: 0, updated: 0, live: 0, statusChanges: 0, priceChanges: 0, markets: 0 },
  };

  for (const e of batch.events) {
    const prev = previous.get(e.eventId);
    const ended = e.status !== 'upcoming' && e.status !== 'live';
    const result = batch.results?.get(e.eventId) ?? null;
    // An end without its result (the results call failed) waits for the next poll: settlement
    // must never read a half-written final.
    if (ended && batch.results === null) continue;

    const step: EventStep = { plan, batch, now, e, prev, ended, set: {}, options };
    const refs = planReferences(plan, e);
    const statusChanged = planEventFields(step, refs);
    const closing = closingAtKickoff(prev, e);
    if (closing) step.set.closingLine = closing;
    const odds = batch.odds?.get(e.eventId);
    const prevItems = itemsOf(prev?.markets);
    const markets = planMarkets(step, odds, prevItems);
    planLiveState(step, markets, odds, prevItems);
    planResult(step, result, statusChanged);
    planAnalysis(step, statusChanged, markets, prevItems);
    planEventWrite(step, statusChanged);
  }
  return plan;
}

/** Reference documents, localized: the event's region, competition and teams (and the teams' regions). */
function planReferences(plan: IngestPlan, e: FeedEvent) {
  const regionCode = e.competition.regionCode;
  const region = { id: regionId(regionCode), name: complete(regionName(regionCode)) };
  const competition = { id: e.competition.id, name: complete(competitionName(e.competition.name)) };
  const team = (t: FeedEvent['homeTeam']) => ({ id: teamId(e.sportId, t.name), name: complete(teamName(t.name)), regionId: regionId(t.regionCode) });
  const homeTeam = team(e.homeTeam);
  const awayTeam = team(e.awayTeam);
  plan.regions.set(region.id, { _id: region.id, code: regionCode, name: region.name });
  for (const t of [e.homeTeam, e.awayTeam]) {
    const r = regionId(t.regionCode);
    if (!plan.regions.has(r)) plan.regions.set(r, { _id: r, code: t.regionCode, name: complete(regionName(t.regionCode)) });
  }
  plan.competitions.set(competition.id, { _id: competition.id, name: competition.name, regionId: region.id, sportId: e.sportId, priority: e.competition.priority });
  for (const t of [homeTeam, awayTeam]) plan.teams.set(t.id, { _id: t.id, name: t.name, sportId: e.sportId, regionId: t.regionId, searchNames: searchNames(t.name) });
  return { region, competition, homeTeam, awayTeam };
}

/** The event's own fields that changed (static fields, start, status, void flag, times, lineups); returns whether its status changed. */
function planEventFields({ plan, batch, e, prev, set }: EventStep, { region, competition, homeTeam, awayTeam }: ReturnType<typeof planReferences>): boolean {
  const statics: Record<string, unknown> = {
    sportId: e.sportId,
    competitionId: competition.id,
    regionId: region.id,
    homeTeam,
    awayTeam,
    competition,
    region,
    priority: e.competition.priority,
    dataSource: batch.provider,
    providerEventId: e.providerEventId,
  };
  for (const [k, v] of Object.entries(statics)) if (!prev || !sameJson(v, (prev as unknown as Record<string, unknown>)[k])) set[k] = v;
  if (!prev || !sameDate(e.startDateTime, prev.startDateTime)) set.startDateTime = e.startDateTime;

  const statusChanged = !prev || prev.status !== e.status;
  if (statusChanged) {
    set.status = e.status;
    if (prev) plan.counts.statusChanges++;
  }
  // An operator's result correction may have voided (or un-voided) the event: that stands too.
  if ((!prev || Boolean(prev.voided) !== e.voided) && !prev?.resultOverride) set.voided = e.voided;
  if (!prev || !sameDate(e.startedAt, prev.startedAt)) set.startedAt = e.startedAt;
  if (!prev || !sameDate(e.endedAt, prev.endedAt)) set.endedAt = e.endedAt;
  if (!prev || !sameJson(e.lineups, prev.lineups)) set.lineups = e.lineups;
  return statusChanged;
}

/** Markets and odds history; returns the event's markets when this poll has them (undefined: stored ones stay). */
function planMarkets({ plan, batch, e, prev, ended, set }: EventStep, odds: FeedOdds | undefined, prevItems: Map<string, StoredBetItem>): StoredMarket[] | undefined {
  let markets: StoredMarket[] | undefined;
  if (!ended && odds) markets = buildMarkets(e.sportId, odds, prev?.markets, prevItems);
  else if (ended && prev?.markets?.some((m) => m.betItems.some((it) => it.isAvailable))) markets = closeMarkets(prev.markets);
  else if (!prev) markets = [];
  const marketsChanged = markets !== undefined && !sameMarkets(markets, prev?.markets);
  if (marketsChanged) {
    set.markets = markets;
    set.oddsUpdatedAt = odds ? odds.at : batch.capturedAt;
    plan.counts.priceChanges++;
    plan.counts.markets += markets!.length;
  }
  // Odds history: the consensus price each time it changes (rows keyed by the source's own
  // timestamp, so a replayed poll appends nothing).
  if (!ended && odds && markets) {
    for (const m of markets) {
      for (const it of m.betItems) {
        if (prevItems.get(it.id)?.price !== it.price) plan.history.push({ betItemId: it.id, eventId: e.eventId, dataSource: batch.provider, price: it.price, at: odds.at });
      }
    }
  }
  return markets;
}

/** Live state: liveStats, live stats, live data and snapshots while in play; closed snapshots when it leaves play. */
function planLiveState({ plan, batch, now, e, prev, set }: EventStep, markets: StoredMarket[] | undefined, odds: FeedOdds | undefined, prevItems: Map<string, StoredBetItem>): void {
  const { provider, capturedAt } = batch;
  const live = batch.live?.get(e.eventId);
  if (e.status === 'live' && batch.live !== null) {
    plan.counts.live++;
    const st = live?.stats;
    const phase = live?.phaseSysname ?? 'IN_PROGRESS';
    const text = phaseText(phase);
    const current = markets ?? prev?.markets ?? [];
    set.liveStats = {
      id: e.eventId,
      homeGoals: st?.homeGoals ?? null,
      awayGoals: st?.awayGoals ?? null,
      homeCorners: st?.homeCorners ?? null,
      awayCorners: st?.awayCorners ?? null,
      homeYellowCards: st?.homeYellowCards ?? null,
      awayYellowCards: st?.awayYellowCards ?? null,
      homeRedCards: st?.homeRedCards ?? null,
      awayRedCards: st?.awayRedCards ?? null,
      elapsedSeconds: live?.elapsedSeconds ?? null,
      phaseSysname: phase,
      phaseCaption: text.short.en,
      phaseCaptionLong: text.long.en,
      referenceTime: (live?.referenceTime ?? capturedAt).toISOString(),
      isLive: true,
      isInPlay: live?.isInPlay ?? true,
      capturedAt: capturedAt.toISOString(),
      liveBetItems: liveBetItems(current, prevItems, capturedAt),
    };
    if (st) {
      const stats = { ...pickStats(st), phase };
      if (!prev || !sameStats(stats, prev.stats) || prev.stats?.phase !== phase) set.stats = stats;
    }
    plan.liveDataOps.push(liveDataOp(e.eventId, provider, st ?? null, phase, true, live?.details ?? {}, now));
    if (odds) plan.snapshotOps.push(...snapshots(provider, e.eventId, current, prevItems, capturedAt, now));
    plan.changed.add('events');
  } else if (prev?.status === 'live') {
    set.liveStats = null;
    plan.changed.add('events');
    // The event left play: its last snapshots are closed (every price unavailable).
    if (prev.markets?.length) plan.snapshotOps.push(...snapshots(provider, e.eventId, closeMarkets(prev.markets), prevItems, capturedAt, now));
  } else if (!prev) {
    set.liveStats = null;
  }
}

/** Results and settlement: final stats, the settlement (or re-grading under a new version) of an ended event. */
function planResult({ plan, batch, now, e, prev, ended, set }: EventStep, result: FeedResult | null, statusChanged: boolean): void {
  let resultVersion = prev?.resultVersion ?? 0;
  if (ended && result && prev?.resultOverride) {
    // The operator's corrected result stands; the feed's count for this event is ignored.
  } else if (ended && result) {
    const stats = { ...pickStats(result.stats), phase: result.phaseSysname };
    const statsChanged = !prev || !sameStats(stats, prev.stats) || prev.stats?.phase !== stats.phase;
    if (statsChanged) set.stats = stats;
    const wasSettleable = settleable(prev?.status, prev?.startedAt);
    const isSettleable = settleable(e.status, e.startedAt);
    if (isSettleable && !wasSettleable) {
      plan.settle.push({ eventId: e.eventId, resultVersion });
    } else if (isSettleable && wasSettleable && (!sameStats(stats, prev?.stats) || Boolean(prev?.voided) !== e.voided || prev?.status !== e.status)) {
      // A correction after the event had ended: settlement re-grades under a new version.
      resultVersion += 1;
      set.resultVersion = resultVersion;
      plan.settle.push({ eventId: e.eventId, resultVersion });
    }
    if (statsChanged || statusChanged) plan.liveDataOps.push(liveDataOp(e.eventId, batch.provider, result.stats, result.phaseSysname, false, result.details, now));
  } else if (!prev && !ended) {
    set.stats = null;
  }
}

/**
 * Whether an upcoming event's pending input change is asked of the AI worker now (pure). A status
 * or lineup change, a first analysis and any change within `reanalyzeMs` of kickoff always are; a
 * price move further out waits until `reanalyzeMs` of world time passed since the last request,
 * and is then asked once with the prices of that moment. Books reprice every event all day, and
 * one analysis per move kept the AI worker behind (at 120x: 20 moves a second for 13 analyses a
 * second on 2 cores) while far-off prices barely move the model.
 */
export function analysisDue(a: { forced: boolean; world: Date; startDateTime: Date; requestedAt: Date | null | undefined; reanalyzeMs: number }): boolean {
  if (a.forced || !a.requestedAt || a.reanalyzeMs <= 0) return true;
  const t = a.world.getTime();
  return a.startDateTime.getTime() - t <= a.reanalyzeMs || t - a.requestedAt.getTime() >= a.reanalyzeMs;
}

/** AI inputs: pre-match prices, lineups and status. A change bumps the analysis version; an analysis (or a status follow-up) is asked when due. */
function planAnalysis({ plan, batch, e, prev, set, options }: EventStep, statusChanged: boolean, markets: StoredMarket[] | undefined, prevItems: Map<string, StoredBetItem>): void {
  let analysisVersion = prev?.analysisVersion ?? 0;
  const forced = statusChanged || 'lineups' in set;
  const aiInputsChanged = forced || (e.status === 'upcoming' && markets !== undefined && consensusChanged(markets, prevItems));
  if (aiInputsChanged) {
    analysisVersion += 1;
    set.analysisVersion = analysisVersion;
    if (e.status !== 'upcoming' && statusChanged && prev)
      plan.statusChanges.push({ eventId: e.eventId, status: e.status, beforeKickoff: (e.status === 'cancelled' || e.status === 'postponed') && !e.startedAt, startDateTime: e.startDateTime });
  }
  if (e.status !== 'upcoming') return;
  // Documents written before requests were recorded count their current version as asked.
  const requested = prev?.analysisRequestedVersion ?? prev?.analysisVersion ?? 0;
  if (analysisVersion <= requested) return;
  if (!analysisDue({ forced, world: batch.capturedAt, startDateTime: e.startDateTime, requestedAt: prev?.analysisRequestedAt, reanalyzeMs: options.reanalyzeMs })) return;
  plan.analyze.push({ eventId: e.eventId, version: analysisVersion });
  set.analysisRequestedVersion = analysisVersion;
  set.analysisRequestedAt = batch.capturedAt;
}

/** The event's write, when anything changed: one upsert keyed by its id. */
function planEventWrite({ plan, now, e, prev, set }: EventStep, statusChanged: boolean): void {
  if (Object.keys(set).length === 0) return;
  set.updatedAt = now;
  const update: Document = { $set: set };
  if (!prev) {
    update.$setOnInsert = { views: 0, resultVersion: 0, createdAt: now };
    plan.counts.inserted++;
  } else plan.counts.updated++;
  plan.eventOps.push({ updateOne: { filter: { _id: e.eventId }, update, upsert: true } });
  plan.changed.add('events');
  if (!prev || statusChanged) {
    plan.changed.add('competitions');
  }
  if (!prev) plan.changed.add('competitions');
}

function pickStats(s: EventStats): EventStats {
  const out = {} as EventStats;
  for (const k of STAT_KEYS) out[k] = s[k] ?? null;
  return out;
}

function liveDataOp(eventId: string, provider: string, stats: EventStats | null, phase: string, isLive: boolean, details: Record<string, unknown>, now: Date): WriteOp {
  const counts = stats ? pickStats(stats) : pickStats({} as EventStats);
  return {
    updateOne: {
      filter: { _id: eventId },
      update: { $set: { eventId, ...counts, phaseSysname: phase, isLive, liveDataJson: details, dataSource: provider, updatedAt: now }, $setOnInsert: { createdAt: now } },
      upsert: true,
    },
  };
}

/** Statuses whose events the feed keeps quoting. */
export const OPEN_STATUSES: readonly FeedStatus[] = ['upcoming', 'live'];
