import type { CacheScope } from '../cacheScopes';
import { competitionName, complete, regionId, regionName, teamName } from '../i18n/names';
import { betItemId, marketId, marketType } from '../markets/catalog';
import { hash32, mix, searchName, teamId, unit } from '../providers/ids';
import type { FeedEvent, FeedLiveStats, FeedOdds, FeedResult, FeedStatus } from '../providers/types';
import { LOCALES, type LocalizedText } from '../sports';
import { statsOf, STAT_KEYS, type EventStats } from '../stats';
import { isRecord } from '../records';
import { closingAtKickoff } from './closing';
import type { PrevEvent, StoredBetItem, StoredMarket } from './stored';
import { clockAt } from '../events/liveViews';

/**
 * Pure: turns one poll's feed and the stored state of its events into the writes that bring
 * MongoDB up to date, plus the jobs and cache invalidations those writes imply. Nothing here
 * touches a database, so the rules (what changed, what settles, what the AI must see) are
 * tested as plain functions.
 */

/** The stored prices of an event (EventPrices), as the planner compares against them. */
export interface PrevPrices {
  markets: StoredMarket[];
  /** When the event was first priced in play (its live-odds snapshots are served from then on). */
  liveFrom?: Date | null;
  /**
   * Ingest's bookkeeping of the AI inputs (pre-match prices, lineups, status): their version, the
   * version last asked of the AI worker and the world time it was asked. Kept with the prices,
   * which move it most: a price move then costs one write, not two.
   */
  analysisVersion?: number;
  analysisRequestedVersion?: number;
  analysisRequestedAt?: Date | null;
}

/**
 * The stored live data of an event (LiveEventData) the planner compares against. The game clock is
 * kept as a reading and its rate (clock seconds per world second) so that a running clock is not a
 * change: it is written again only when the reading drifts from the extrapolation.
 */
export interface PrevLive {
  stats: EventStats;
  phaseSysname: string | null;
  isLive: boolean;
  isInPlay: boolean;
  details: unknown;
  elapsedSeconds: number | null;
  elapsedAt: Date | null;
  clockRate: number | null;
}

/** Everything the planner knows of one stored event. */
export interface PrevState {
  event: PrevEvent;
  prices: PrevPrices | null;
  live: PrevLive | null;
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

/** One reprice of one event: the consensus of every bet item whose price moved, at the source's timestamp. */
export interface HistoryDoc {
  _id: string;
  eventId: string;
  dataSource: string;
  at: Date;
  items: { id: string; price: number }[];
}

/** A write of one document by id: `insert` when the planner knows it is not stored yet. */
export interface DocWrite {
  id: string;
  insert: boolean;
  /** The fields to set (the whole document on insert). */
  set: Record<string, unknown>;
}

/** What a poll changed, as the change feed (shared/platform/feed) carries it. */
export interface PlannedChange {
  eventId: string;
  kind: 'price' | 'status' | 'score' | 'lineups' | 'closing' | 'result';
  at: Date;
  data: unknown;
}

export interface IngestPlan {
  events: DocWrite[];
  prices: DocWrite[];
  liveData: DocWrite[];
  history: HistoryDoc[];
  competitions: Map<number, Record<string, unknown>>;
  regions: Map<number, Record<string, unknown>>;
  teams: Map<number, Record<string, unknown>>;
  settle: { eventId: string; resultVersion: number }[];
  /** Upcoming events whose AI inputs changed: each gets an analysis (the only ones the model prices). */
  analyze: { eventId: string; version: number }[];
  /**
   * Events that left `upcoming` (or changed status after): their insight follows the status, and
   * one that ended before its kickoff (cancelled, postponed) leaves its day's featured picks.
   */
  statusChanges: { eventId: string; status: string; beforeKickoff: boolean; startDateTime: Date }[];
  /** The change feed's entries, in the order the changes were planned. */
  changes: PlannedChange[];
  /** The stored state once these writes are applied: the next poll's previous state. */
  next: Map<string, PrevState>;
  /** Page-cache scopes whose data this write changes (shared/platform/cache/versions.ts). */
  changed: Set<CacheScope>;
  counts: { events: number; inserted: number; updated: number; live: number; statusChanges: number; priceChanges: number; markets: number };
}

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
  if (!isRecord(a) || !isRecord(b)) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!sameJson(a[k], b[k])) return false;
  return true;
}

function sameBookPrices(a: Record<string, number> | undefined, b: Record<string, number> | undefined): boolean {
  // A missing map equals an empty one.
  if (!a || !b) return Object.keys(a ?? b ?? {}).length === 0;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k] === b[k]);
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

/** The fields an event write sets (the stored event's own fields). */
type EventSet = Partial<PrevEvent>;

/** A bet item's price before a move (PricesFields.previous). */
interface PreviousPrice {
  id: string;
  price: number;
  bookPrices: Record<string, number>;
}

/** The prices document's fields (EventPrices) the planner writes: all of them on insert. */
interface PricesFields {
  dataSource: string;
  markets: StoredMarket[];
  previous: PreviousPrice[];
  movedAt: Date;
  oddsUpdatedAt: Date | null;
  liveFrom: Date | null;
  analysisVersion: number;
  analysisRequestedVersion: number;
  analysisRequestedAt: Date | null;
}

/** The fields of the event a feed describes, compared with the stored ones each poll. */
const STATIC_FIELDS = [
  'sportId',
  'competitionId',
  'regionId',
  'homeTeam',
  'awayTeam',
  'competition',
  'region',
  'priority',
  'dataSource',
  'providerEventId',
] as const satisfies readonly (keyof PrevEvent)[];

/** What the steps of one event's plan share: the feed's event, its stored state and the fields its write sets. */
interface EventStep {
  plan: IngestPlan;
  batch: FeedBatch;
  now: Date;
  e: FeedEvent;
  prev: PrevEvent | undefined;
  prevState: PrevState | undefined;
  ended: boolean;
  /** The event's `$set` so far. */
  set: EventSet;
  /** The prices document's `$set` so far. */
  priceSet: Partial<PricesFields>;
  options: PlanOptions;
}

/** How often a price move asks for a new analysis (ms of world time; 0 = every move): see analysisDue. */
export interface PlanOptions {
  reanalyzeMs: number;
}

export function planIngest(batch: FeedBatch, previous: Map<string, PrevState>, now: Date, options: PlanOptions = { reanalyzeMs: 0 }): IngestPlan {
  const plan: IngestPlan = {
    events: [],
    prices: [],
    liveData: [],
    history: [],
    competitions: new Map(),
    regions: new Map(),
    teams: new Map(),
    settle: [],
    analyze: [],
    statusChanges: [],
    changes: [],
    next: new Map(),
    changed: new Set(),
    counts: { events: batch.events.length, inserted: 0, updated: 0, live: 0, statusChanges: 0, priceChanges: 0, markets: 0 },
  };

  for (const e of batch.events) {
    const prevState = previous.get(e.eventId);
    const prev = prevState?.event;
    const ended = e.status !== 'upcoming' && e.status !== 'live';
    const result = batch.results?.get(e.eventId) ?? null;
    // An end without its result (the results call failed) waits for the next poll: settlement
    // must never read a half-written final.
    if (ended && batch.results === null) {
      if (prevState) plan.next.set(e.eventId, prevState);
      continue;
    }

    const step: EventStep = { plan, batch, now, e, prev, prevState, ended, set: {}, priceSet: {}, options };
    const refs = planReferences(plan, e);
    const statusChanged = planEventFields(step, refs);
    const prevMarkets = prevState?.prices?.markets;
    const closing = closingAtKickoff(prev, prevMarkets, e);
    if (closing) {
      step.set.closingLine = closing;
      plan.changes.push({ eventId: e.eventId, kind: 'closing', at: batch.capturedAt, data: closing });
    }
    const odds = batch.odds?.get(e.eventId);
    const prevItems = itemsOf(prevMarkets);
    const markets = planPrices(step, odds, prevItems);
    const live = planResult(step, result, statusChanged) ?? planLiveData(step);
    planAnalysis(step, statusChanged, markets, prevItems);
    const prices = planPricesWrite(step);
    const event = planEventWrite(step);
    plan.next.set(e.eventId, { event, prices, live: live === undefined ? (prevState?.live ?? null) : live });
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
  const statics: Required<Pick<PrevEvent, (typeof STATIC_FIELDS)[number]>> = {
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
  for (const k of STATIC_FIELDS) if (!prev || !sameJson(statics[k], prev[k])) copyField(set, statics, k);
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
  if (!prev || !sameJson(e.lineups, prev.lineups)) {
    set.lineups = e.lineups;
    if (prev) plan.changes.push({ eventId: e.eventId, kind: 'lineups', at: batch.capturedAt, data: { lineups: e.lineups } });
  }
  if (statusChanged && prev) {
    plan.changes.push({ eventId: e.eventId, kind: 'status', at: batch.capturedAt, data: { status: e.status, previous: prev.status, voided: e.voided, startedAt: e.startedAt, endedAt: e.endedAt } });
  }
  return statusChanged;
}

/**
 * The prices before this move of each item that moved (a list: bet item ids hold dots, which no
 * document key may): { id, price, bookPrices }.
 */
function previousOf(markets: StoredMarket[], prevItems: Map<string, StoredBetItem>): PreviousPrice[] {
  const out: PreviousPrice[] = [];
  for (const m of markets) {
    for (const it of m.betItems) {
      const p = prevItems.get(it.id);
      if (p && (p.price !== it.price || !sameBookPrices(p.bookPrices, it.bookPrices))) out.push({ id: it.id, price: p.price, bookPrices: { ...(p.bookPrices ?? {}) } });
    }
  }
  return out;
}

/**
 * Prices and odds history; returns the event's markets when they changed this poll (undefined:
 * the stored ones stand). The prices document is written only when a price, an availability or
 * the set of markets changed, with the prices before the move (for priceChange at read time).
 */
function planPrices({ plan, batch, e, prev, prevState, ended, priceSet }: EventStep, odds: FeedOdds | undefined, prevItems: Map<string, StoredBetItem>): StoredMarket[] | undefined {
  const stored = prevState?.prices?.markets;
  // The first poll that sees the event in play records it on the prices (its snapshots start then), once.
  const liveFrom = prevState?.prices?.liveFrom ?? (e.status === 'live' ? batch.capturedAt : null);
  const goesLive = e.status === 'live' && !prevState?.prices?.liveFrom;
  let markets: StoredMarket[] | undefined;
  if (!ended && odds) markets = buildMarkets(e.sportId, odds, stored, prevItems);
  // When an event leaves play, every item becomes unavailable.
  else if (ended && stored?.some((m) => m.betItems.some((it) => it.isAvailable))) markets = closeMarkets(stored);
  else if (!prev && !prevState?.prices) markets = [];
  if (markets === undefined && goesLive) markets = stored ?? [];
  if (markets === undefined || (prevState?.prices && sameMarkets(markets, stored) && !goesLive)) return undefined;
  Object.assign(priceSet, {
    dataSource: batch.provider,
    markets,
    previous: previousOf(markets, prevItems),
    movedAt: batch.capturedAt,
    oddsUpdatedAt: odds ? odds.at : batch.capturedAt,
    liveFrom,
  } satisfies Partial<PricesFields>);
  plan.counts.priceChanges++;
  plan.counts.markets += markets.length;
  plan.changed.add('events');
  // Odds history and the feed: the consensus of each item whose price moved (or appeared), one
  // document per reprice keyed by the source's own timestamp, so a replayed poll appends nothing.
  const moved: { id: string; price: number; isAvailable: boolean; bookPrices: Record<string, number> | undefined }[] = [];
  for (const m of markets) {
    for (const it of m.betItems) {
      const p = prevItems.get(it.id);
      if (!p || p.price !== it.price || p.isAvailable !== it.isAvailable || !sameBookPrices(p.bookPrices, it.bookPrices))
        moved.push({ id: it.id, price: it.price, isAvailable: it.isAvailable, bookPrices: it.bookPrices });
    }
  }
  if (!ended && odds) {
    const items = markets.flatMap((m) => m.betItems.filter((it) => prevItems.get(it.id)?.price !== it.price).map((it) => ({ id: it.id, price: it.price })));
    if (items.length) plan.history.push({ _id: `${e.eventId}|${batch.provider}|${odds.at.getTime()}`, eventId: e.eventId, dataSource: batch.provider, at: odds.at, items });
  }
  if (moved.length && prev) plan.changes.push({ eventId: e.eventId, kind: 'price', at: batch.capturedAt, data: { items: moved } });
  return markets;
}

/** The prices document's write, when its prices or the analysis bookkeeping changed; returns its stored state after. */
function planPricesWrite({ plan, batch, e, prevState, priceSet }: EventStep): PrevPrices | null {
  const before = prevState?.prices ?? null;
  if (Object.keys(priceSet).length === 0) return before;
  // A first prices document is whole, whatever asked for it (an analysis request of an event never priced).
  const whole: PricesFields = {
    dataSource: batch.provider,
    markets: [],
    previous: [],
    movedAt: batch.capturedAt,
    oddsUpdatedAt: null,
    liveFrom: null,
    analysisVersion: 0,
    analysisRequestedVersion: 0,
    analysisRequestedAt: null,
  };
  plan.prices.push({ id: e.eventId, insert: !before, set: before ? priceSet : { ...whole, ...priceSet } });
  const after = { ...(before ?? whole), ...priceSet };
  return {
    markets: after.markets,
    liveFrom: after.liveFrom ?? null,
    analysisVersion: after.analysisVersion,
    analysisRequestedVersion: after.analysisRequestedVersion,
    analysisRequestedAt: after.analysisRequestedAt ?? null,
  };
}

/** Whether a running clock read now is exactly where the stored reading and rate put it (so a served clock is the provider's reading). */
export function clockOnTrack(stored: Pick<PrevLive, 'elapsedSeconds' | 'elapsedAt' | 'clockRate' | 'isInPlay'>, elapsed: number | null, at: Date): boolean {
  if (elapsed === null || stored.elapsedSeconds === null) return elapsed === stored.elapsedSeconds;
  if (!stored.isInPlay || stored.clockRate === null || !stored.elapsedAt) return elapsed === stored.elapsedSeconds;
  return extrapolateClock(stored, at) === elapsed;
}

/** The game clock at `at` from a stored reading: it runs at its rate while in play, else stands. */
export function extrapolateClock(stored: Pick<PrevLive, 'elapsedSeconds' | 'elapsedAt' | 'clockRate' | 'isInPlay'>, at: Date): number {
  // The read side's clock (shared/domain/events/liveViews.ts), so what is written is what is served.
  return clockAt(stored, at) ?? 0;
}

/**
 * Live data while in play: written only when the counts, the phase, the detail or the in-play
 * flag changed, or the clock left the track its last reading and rate set (returns the new
 * stored state; undefined when the stored one stands). The contract's flat live stats, live bet
 * items and per-source snapshots are built from it, the prices and the provider's freshness at
 * read time.
 */
function planLiveData({ plan, batch, now, e, prev, prevState, set }: EventStep): PrevLive | undefined {
  const live = batch.live?.get(e.eventId);
  if (!(e.status === 'live' && batch.live !== null)) {
    if (prev?.status === 'live') plan.changed.add('events');
    return undefined;
  }
  plan.counts.live++;
  plan.changed.add('events');
  if (!live) return undefined;
  const stats = pickStats(live.stats);
  const phase = live.phaseSysname ?? 'IN_PROGRESS';
  const eventStats = { ...stats, phase };
  if (!prev || !sameStats(eventStats, prev.stats) || prev.stats?.phase !== phase) {
    set.stats = eventStats;
    if (prev) plan.changes.push({ eventId: e.eventId, kind: 'score', at: batch.capturedAt, data: { ...eventStats, elapsedSeconds: live.elapsedSeconds } });
  }
  const stored = prevState?.live;
  const same =
    stored &&
    stored.isLive &&
    sameStats(stats, stored.stats) &&
    stored.phaseSysname === phase &&
    stored.isInPlay === live.isInPlay &&
    sameJson(live.details ?? {}, stored.details) &&
    clockOnTrack(stored, live.elapsedSeconds, batch.capturedAt);
  if (same) return undefined;
  // The clock's rate, measured from the stored reading in the same stretch of play (a quarter's
  // clock runs slower than the wall). The stored reading stays the anchor while the new rate
  // reproduces this reading from it exactly: the longer the span, the truer the rate, and the fewer
  // rewrites an integer clock costs.
  const span = stored?.elapsedAt ? (batch.capturedAt.getTime() - stored.elapsedAt.getTime()) / 1000 : 0;
  const reading = live.elapsedSeconds;
  const storedReading = stored?.elapsedSeconds ?? null;
  const sameStretch = live.isInPlay && stored?.isInPlay && stored.phaseSysname === phase && span > 0 && reading !== null && storedReading !== null;
  const clockRate = sameStretch ? Math.max(0, (reading - storedReading) / span) : (stored?.clockRate ?? null);
  const anchor = sameStretch && extrapolateClock({ ...stored, clockRate }, batch.capturedAt) === live.elapsedSeconds ? stored : { elapsedSeconds: live.elapsedSeconds, elapsedAt: batch.capturedAt };
  const next: PrevLive = {
    stats,
    phaseSysname: phase,
    isLive: true,
    isInPlay: live.isInPlay,
    details: live.details ?? {},
    elapsedSeconds: anchor.elapsedSeconds,
    elapsedAt: anchor.elapsedAt,
    clockRate: live.isInPlay ? clockRate : null,
  };
  plan.liveData.push(liveDataWrite(e.eventId, batch.provider, next, !stored, now));
  return next;
}

/** Results and settlement: final stats, the settlement (or re-grading under a new version) of an ended event. */
function planResult({ plan, batch, now, e, prev, prevState, ended, set }: EventStep, result: FeedResult | null, statusChanged: boolean): PrevLive | undefined {
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
    if (statsChanged && prev) plan.changes.push({ eventId: e.eventId, kind: 'result', at: batch.capturedAt, data: { ...stats, status: e.status, voided: e.voided, resultVersion } });
    if (statsChanged || statusChanged || prevState?.live?.isLive) {
      const next: PrevLive = {
        stats: pickStats(result.stats),
        phaseSysname: result.phaseSysname,
        isLive: false,
        isInPlay: false,
        details: result.details ?? {},
        elapsedSeconds: null,
        elapsedAt: null,
        clockRate: null,
      };
      plan.liveData.push(liveDataWrite(e.eventId, batch.provider, next, !prevState?.live, now));
      return next;
    }
  } else if (!prev && !ended) {
    set.stats = null;
  }
  return undefined;
}

/**
 * Whether an upcoming event's pending input change is asked of the AI worker now (pure). A status
 * or lineup change, a first analysis and any change within `reanalyzeMs` of kickoff always are; a
 * price move further out waits until `reanalyzeMs` of world time passed since the last request,
 * and is then asked once with the prices of that moment. Books reprice every event all day, and
 * one analysis per move kept the AI worker behind (at 120x: 20 moves a second for 13 analyses a
 * second on 2 cores) while far-off prices barely move the model.
 *
 * The wait is `reanalyzeMs` stretched by a share of the event's own (`reanalyzeSpread`, up to
 * half): events first analysed together (every event of a fresh start) would otherwise all come
 * due in the same poll, every `reanalyzeMs`, and the ai queue would wait behind 300 analyses at
 * once (seen at demo speed: a burst every 72 s, analyses waiting up to 12 s, health degraded).
 */
export function analysisDue(a: { eventId: string; forced: boolean; world: Date; startDateTime: Date; requestedAt: Date | null | undefined; reanalyzeMs: number }): boolean {
  if (a.forced || !a.requestedAt || a.reanalyzeMs <= 0) return true;
  const t = a.world.getTime();
  return a.startDateTime.getTime() - t <= a.reanalyzeMs || t - a.requestedAt.getTime() >= reanalyzeWaitMs(a.eventId, a.reanalyzeMs);
}

/** The event's wait between two price-driven analyses: from `reanalyzeMs` to 1.5 times it, fixed per event. */
export function reanalyzeWaitMs(eventId: string, reanalyzeMs: number): number {
  return Math.round(reanalyzeMs * (1 + reanalyzeSpread(eventId) / 2));
}

/** A share in [0, 1) fixed by the event's id (FNV-1a, mixed: ids differing in their last characters differ in FNV's low bits only). */
function reanalyzeSpread(eventId: string): number {
  return unit(mix(hash32(eventId)));
}

/** AI inputs: pre-match prices, lineups and status. A change bumps the analysis version; an analysis (or a status follow-up) is asked when due. */
function planAnalysis(
  { plan, batch, e, prev, prevState, set, priceSet, options }: EventStep,
  statusChanged: boolean,
  markets: StoredMarket[] | undefined,
  prevItems: Map<string, StoredBetItem>,
): void {
  const book = prevState?.prices;
  let analysisVersion = book?.analysisVersion ?? 0;
  const forced = statusChanged || 'lineups' in set;
  const aiInputsChanged = forced || (e.status === 'upcoming' && markets !== undefined && consensusChanged(markets, prevItems));
  if (aiInputsChanged) {
    analysisVersion += 1;
    priceSet.analysisVersion = analysisVersion;
    if (e.status !== 'upcoming' && statusChanged && prev)
      plan.statusChanges.push({ eventId: e.eventId, status: e.status, beforeKickoff: (e.status === 'cancelled' || e.status === 'postponed') && !e.startedAt, startDateTime: e.startDateTime });
  }
  if (e.status !== 'upcoming') return;
  const requested = book?.analysisRequestedVersion ?? 0;
  if (analysisVersion <= requested) return;
  if (!analysisDue({ eventId: e.eventId, forced, world: batch.capturedAt, startDateTime: e.startDateTime, requestedAt: book?.analysisRequestedAt, reanalyzeMs: options.reanalyzeMs })) return;
  plan.analyze.push({ eventId: e.eventId, version: analysisVersion });
  priceSet.analysisRequestedVersion = analysisVersion;
  priceSet.analysisRequestedAt = batch.capturedAt;
}

/** Defaults of a new event's fields that no poll sets (the schema's defaults, written by the insert). */
const NEW_EVENT_DEFAULTS = { resultVersion: 0, resultOverride: null, closingLine: null, voided: false, lineups: null } satisfies EventSet;

/** The event's write, when anything of its own changed: an insert when new, else one update by id. Returns its stored state after. */
function planEventWrite({ plan, now, e, prev, set }: EventStep): PrevEvent {
  // A new event's status is in `set` too (a first poll always sets it).
  const after: PrevEvent = { ...(prev ?? { _id: e.eventId, ...NEW_EVENT_DEFAULTS, status: e.status }), ...set };
  if (Object.keys(set).length === 0) return after;
  if (!prev) {
    plan.events.push({ id: e.eventId, insert: true, set: { _id: e.eventId, ...NEW_EVENT_DEFAULTS, ...set, createdAt: now, updatedAt: now } });
    plan.counts.inserted++;
  } else {
    plan.events.push({ id: e.eventId, insert: false, set: { ...set, updatedAt: now } });
    plan.counts.updated++;
  }
  plan.changed.add('events');
  return after;
}

function pickStats(s: EventStats): EventStats {
  return statsOf((k) => s[k] ?? null);
}

/** Copies one field; the generic key keeps the field's own type on both sides. */
function copyField<T, K extends keyof T>(to: Partial<NoInfer<T>>, from: T, k: K): void {
  to[k] = from[k];
}

function liveDataWrite(eventId: string, provider: string, live: PrevLive, insert: boolean, now: Date): DocWrite {
  const set: Record<string, unknown> = {
    eventId,
    ...live.stats,
    phaseSysname: live.phaseSysname,
    isLive: live.isLive,
    isInPlay: live.isInPlay,
    liveDataJson: live.details,
    elapsedSeconds: live.elapsedSeconds,
    elapsedAt: live.elapsedAt,
    clockRate: live.clockRate,
    dataSource: provider,
    updatedAt: now,
  };
  return { id: eventId, insert, set: insert ? { _id: eventId, ...set, createdAt: now } : set };
}

/** Statuses whose events the feed keeps quoting. */
export const OPEN_STATUSES: readonly FeedStatus[] = ['upcoming', 'live'];
