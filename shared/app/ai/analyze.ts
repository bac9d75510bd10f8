import { processMemo } from '../../platform/processScope';
import { createHash } from 'node:crypto';
import { analyzeEvent, type AnalysisEvent, type AnalysisFit, type AnalysisMarket, type AnalysisOptions } from '../../domain/ai/eventAnalysis';
import { normalizeName } from '../../domain/ai/selection';
import { utcDay } from '../../domain/days';
import type { AppContext } from '../context';
import type { AnalysedEventRow, AnalysisStore } from './ports';
export type { AnalysisStore } from './ports';

/** `picksDay`: the day whose featured picks this outcome changes (the worker has them rebuilt). */
export type AnalyzeOutcome =
  | { status: 'missing' }
  | { status: 'started'; picksDay?: string }
  | { status: 'unchanged' }
  | { status: 'no-prices' }
  | { status: 'analyzed'; recommendations: number; inserted: number; picksDay: string };

/** A stored market as the analysis reads it (ids as text, absent book prices as null). */
export function toAnalysisMarket(m: AnalysedEventRow['markets'][number]): AnalysisMarket {
  return {
    id: m.id,
    betTypeSysname: m.betTypeSysname,
    line: m.line ?? null,
    betItems: (m.betItems ?? []).map((i) => ({
      id: i.id,
      code: i.code,
      price: i.price,
      isAvailable: i.isAvailable,
      bookPrices: i.bookPrices ?? null,
    })),
  };
}

export function toAnalysisEvent(e: AnalysedEventRow): AnalysisEvent {
  return {
    id: String(e._id),
    sportId: e.sportId,
    dataSource: e.dataSource,
    homeTeam: { id: e.homeTeam.id, name: { en: e.homeTeam.name.en, es: e.homeTeam.name.es ?? undefined, pt: e.homeTeam.name.pt ?? undefined } },
    awayTeam: { id: e.awayTeam.id, name: { en: e.awayTeam.name.en, es: e.awayTeam.name.es ?? undefined, pt: e.awayTeam.name.pt ?? undefined } },
    competition: { id: e.competition.id, name: { en: e.competition.name.en, es: e.competition.name.es ?? undefined, pt: e.competition.name.pt ?? undefined } },
    competitionId: e.competitionId,
    regionId: e.regionId,
    startDateTime: e.startDateTime,
    markets: (e.markets ?? []).map(toAnalysisMarket),
  };
}

type LoadedFit = { fit: AnalysisFit | null; bookRanking: string[]; key: unknown };

/** A sport's fit changes once an hour (refit): read at most every few seconds per process, not per analysis. */
const FIT_CACHE_MS = 5000;
const fitsOf = processMemo(() => new Map<number, { at: number; value: Promise<LoadedFit> }>());

export function loadFit(ctx: AppContext, sportId: number): Promise<LoadedFit> {
  const fits = fitsOf();
  const cached = fits.get(sportId);
  const now = ctx.clock.now().getTime();
  if (cached && now - cached.at < FIT_CACHE_MS) return cached.value;
  const value = readFit(ctx.analysis, sportId);
  fits.set(sportId, { at: now, value });
  value.catch(() => fits.delete(sportId));
  return value;
}

/** After a refit in this process: the next analysis reads the new fit. */
export function forgetFits(): void {
  fitsOf().clear();
}

async function readFit(store: AnalysisStore, sportId: number): Promise<LoadedFit> {
  const doc = await store.findFit(sportId);
  if (!doc) return { fit: null, bookRanking: [], key: null };
  return {
    fit: doc.params ? { params: doc.params, blendWeight: doc.blendWeight ?? 0, gamesUsed: doc.gamesUsed ?? 0, fittedAt: doc.fittedAt } : null,
    bookRanking: doc.bookRanking ?? [],
    key: { window: doc.window, fittedAt: doc.fittedAt.toISOString(), blendWeight: doc.blendWeight, ranking: doc.bookRanking },
  };
}

/**
 * What this process last wrote per event: the inputs' hash and the recommendation ids. A hint
 * that saves reads and rewrites, never the truth: another worker may have written since, and
 * every write stays conditional or insert-only. Bounded: the oldest events are forgotten first.
 */
const MEMO_EVENTS = 20_000;
const memoOf = processMemo(() => new Map<string, { hash: string; recommendationIds: Set<string> }>());

function remember(eventId: string, hash: string, recommendationIds: string[]): void {
  const memo = memoOf();
  memo.delete(eventId);
  memo.set(eventId, { hash, recommendationIds: new Set(recommendationIds) });
  const oldest = memo.keys().next();
  if (memo.size > MEMO_EVENTS && !oldest.done) memo.delete(oldest.value);
}

/** Everything an analysis depends on, hashed: the same inputs are never analysed twice. */
export function inputHash(event: AnalysisEvent, fitKey: unknown, settings: Pick<AnalysisOptions, 'minEdge' | 'devigMethod'>): string {
  const markets = event.markets.map((m) => [
    m.id,
    m.betTypeSysname,
    m.line,
    m.betItems.map((i) => [i.id, i.code, i.price, i.isAvailable !== false, Object.entries(i.bookPrices ?? {}).sort(([a], [b]) => a.localeCompare(b))]),
  ]);
  return createHash('sha1')
    .update(JSON.stringify([event.startDateTime.toISOString(), markets, fitKey, settings.minEdge, settings.devigMethod]))
    .digest('hex');
}

/**
 * The `analyze-event` job. Before kickoff: analyse, write the new recommendations once (an
 * existing one is never touched: insert-only upserts keyed by event, bet item, bookmaker and
 * price), replace the insight, have the day's picks rebuilt. From kickoff on: only the insight's
 * status follows the event; no recommendation is created or changed.
 */
export async function analyzeEventJob(ctx: AppContext, eventId: string): Promise<AnalyzeOutcome> {
  const outcome = await analyze(ctx, eventId);
  // Cached /v2/ai pages are rendered afresh once the analysis is written.
  if (outcome.status === 'analyzed' || outcome.status === 'started') await ctx.cache.bump('ai');
  // Coalesced: the day's picks are rebuilt once for however many of its events were analysed meanwhile.
  if ('picksDay' in outcome && outcome.picksDay) await ctx.dispatch([{ kind: 'request-picks-rebuild', day: outcome.picksDay }]);
  return outcome;
}

async function analyze(ctx: AppContext, eventId: string): Promise<AnalyzeOutcome> {
  const store = ctx.analysis;
  const now = () => ctx.clock.worldNow();
  const event = await store.findEvent(eventId);
  if (!event) return { status: 'missing' };
  const started = () => event.status !== 'upcoming' || now().getTime() >= event.startDateTime.getTime();
  if (started()) {
    await store.setInsightStatus(eventId, event.status);
    await store.publishStarted(eventId, now());
    // Cancelled or postponed before its start: its recommendations leave the day's picks.
    return now() < event.startDateTime ? { status: 'started', picksDay: utcDay(event.startDateTime) } : { status: 'started' };
  }
  const { AI_MIN_EDGE: minEdge, AI_DEVIG: devigMethod } = ctx.config;
  const input = toAnalysisEvent(event);
  const { fit, bookRanking, key: fitKey } = await loadFit(ctx, event.sportId);
  const hash = inputHash(input, fitKey, { minEdge, devigMethod });
  const known = memoOf().get(eventId);
  // This process wrote another analysis of the event: the inputs changed, no need to read it.
  if (known?.hash === hash) return { status: 'unchanged' };
  if (!known) {
    const previous = await store.findAnalysisMark(eventId);
    if (previous?.inputHash === hash && previous.status === event.status) {
      // Stored by a process that may have died before publishing it (this may be its retry).
      if (previous.analysisTimestamp) await store.publishAnalysis(eventId, previous.analysisTimestamp, previous.recommendationIds ?? []);
      return { status: 'unchanged' };
    }
  }

  const at = now();
  const analysis = analyzeEvent(input, fit, { minEdge, devigMethod, now: at, bookRanking });
  if (!analysis) return { status: 'no-prices' };
  // The analysis took time: the kickoff rule is checked again right before writing.
  if (started()) return { status: 'started' };

  let inserted = 0;
  // Recommendations are insert-only: one this process already wrote is not sent again.
  const fresh = analysis.recommendations.filter((r) => !known?.recommendationIds.has(r._id));
  if (fresh.length) {
    const written = await store.insertRecommendations(fresh.map((r) => ({ ...r, settled: false, result: null, createdAt: at, updatedAt: at })));
    inserted = written.length;
    // Committed before the insight names them: a crash in between leaves the inputs unanalysed, so the retry commits them.
    await store.commitRecommendations(
      fresh.map((r) => r._id),
      { id: eventId, home: input.homeTeam.name.en, away: input.awayTeam.name.en, competition: input.competition.name.en, startAt: event.startDateTime },
      written,
    );
  }
  const insight = analysis.insight;
  // A slower job that analysed older prices must not overwrite a newer analysis.
  await store.writeInsight(eventId, {
    eventId,
    status: event.status,
    startDateTime: event.startDateTime,
    sportId: event.sportId,
    competitionId: event.competitionId,
    regionId: event.regionId,
    teamSearch: teamSearchNames(input),
    marketEfficiencyScore: insight.marketEfficiencyScore,
    valueOpportunities: insight.valueOpportunities,
    recommendationIds: analysis.recommendations.map((r) => r._id),
    riskFactors: insight.riskFactors,
    aiNotes: insight.aiNotes,
    event: insight.event,
    analysisInsight: insight.analysisInsight,
    matchSimulation: insight.matchSimulation,
    analysisTimestamp: at,
    inputHash: hash,
  });
  // Published before it is remembered: a failed publish leaves the retry to read and publish it.
  await store.publishAnalysis(
    eventId,
    at,
    analysis.recommendations.map((r) => r._id),
  );
  remember(eventId, hash, [...(known?.recommendationIds ?? []), ...analysis.recommendations.map((r) => r._id)]);
  ctx.log({ component: 'ai-analyze' }).debug({ eventId, recommendations: analysis.recommendations.length, inserted }, 'event analysed');
  return { status: 'analyzed', recommendations: analysis.recommendations.length, inserted, picksDay: utcDay(event.startDateTime) };
}

function teamSearchNames(e: AnalysisEvent): string[] {
  const names = [e.homeTeam.name, e.awayTeam.name].flatMap((n) => [n.en, n.es, n.pt]).filter((n): n is string => !!n);
  return [...new Set(names.map(normalizeName))];
}
