import { marketType } from '../../domain/markets/catalog';
import { childLogger } from '../../platform/logger';
import { findInsightBlendInputsByEventIds, upsertModelFitUnlessNewerWindow } from '../../platform/db/repositories/ai';
import { findCompletedEventScoresOfSport } from '../../platform/db/repositories/events';
import { findEventMarketsOfSportSince } from '../../platform/db/repositories/eventForms';
import type { AnalysisMarket } from '../../domain/ai/analysis/types';
import { rankBookmakers } from '../../domain/ai/bookRanking';
import type { ClosingLine } from '../../domain/ingest/closing';
import { toAnalysisMarket } from './analyze';
import { sportDefinition } from '../../domain/sports/registry';
import { FIT_WINDOW_DAYS, fitPoolWeight, fitSport, type BlendRow, type CompletedGame } from '../../domain/ai/sportFit';
import { DAY_MS, daysBefore } from '../../domain/days';

const log = childLogger({ component: 'ai-refit' });
/** Days of recent events whose quotes rank the bookmakers by typical margin. */
const RANKING_DAYS = 30;

/** A stored closing line's markets, as the analysis reads markets (every item was quoted at the close). */
function closingMarkets(line: unknown): AnalysisMarket[] | null {
  const markets = (line as ClosingLine | null | undefined)?.markets;
  if (!Array.isArray(markets)) return null;
  return markets.map((m) => ({ id: m.id, betTypeSysname: m.betTypeSysname, line: m.line, betItems: m.betItems.map((i) => ({ ...i, isAvailable: true })) }));
}

export interface RefitOutcome {
  sportId: number;
  window: string;
  gamesUsed: number;
  blendWeight: number;
  blendEvents: number;
  bookRanking: string[];
  written: boolean;
}

/**
 * The `refit` job of one sport: team ratings from completed games of the last two years, the
 * model's blend weight from completed events whose pre-kickoff analysis stored both views,
 * and the bookmakers' sharpness ranking from recent quotes. A fit of an older window never
 * replaces a newer one; the same window twice writes the same fit.
 */
export async function refitJob(sportId: number, window: string, now: Date = new Date()): Promise<RefitOutcome> {
  const sport = sportDefinition(sportId);
  const since = daysBefore(now, FIT_WINDOW_DAYS);
  const completed = await findCompletedEventScoresOfSport(sportId, since, now);
  const games: CompletedGame[] = [];
  for (const e of completed) {
    const s = e.stats;
    if (!s || typeof s.homeGoals !== 'number' || typeof s.awayGoals !== 'number') continue;
    const cards = (y: number | null | undefined, r: number | null | undefined) => (typeof y === 'number' ? y + (typeof r === 'number' ? r : 0) : null);
    games.push({
      home: String(e.homeTeam.id),
      away: String(e.awayTeam.id),
      homeScore: s.homeGoals,
      awayScore: s.awayGoals,
      day: e.startDateTime.getTime() / DAY_MS,
      homeCorners: s.homeCorners ?? null,
      awayCorners: s.awayCorners ?? null,
      homeCards: cards(s.homeYellowCards, s.homeRedCards),
      awayCards: cards(s.awayYellowCards, s.awayRedCards),
    });
  }
  const fit = fitSport(sportId, games, now.getTime() / DAY_MS);

  // Blend weight: the stored pre-kickoff views of completed events against their outcomes.
  const outcomeOf = new Map(
    completed.flatMap((e) => (e.stats && typeof e.stats.homeGoals === 'number' && typeof e.stats.awayGoals === 'number' ? [[String(e._id), [e.stats.homeGoals, e.stats.awayGoals] as const]] : [])),
  );
  const threeWay = marketType(sport.mainMarket)?.kind === 'result3';
  const rows: BlendRow[] = [];
  if (fit && outcomeOf.size) {
    const insights = await findInsightBlendInputsByEventIds([...outcomeOf.keys()]);
    for (const i of insights) {
      const inputs = (i.analysisInsight as { blendInputs?: { market: number[]; model: number[] } } | null)?.blendInputs;
      const score = outcomeOf.get(String(i._id));
      if (!inputs || !score || !(i.analysisTimestamp < i.startDateTime)) continue;
      const [h, a] = score;
      if (!threeWay && h === a) continue;
      rows.push({ market: inputs.market, model: inputs.model, outcome: h > a ? 0 : h === a ? 1 : threeWay ? 2 : 1 });
    }
  }
  const blend = fitPoolWeight(rows);

  // Sharpness: median margin per bookmaker over recent full markets of this sport (closing lines of the started ones).
  const recent = await findEventMarketsOfSportSince(sportId, daysBefore(now, RANKING_DAYS), 5000);
  const { bookMargins, bookRanking } = rankBookmakers(
    recent.map((e) => ({
      dataSource: e.dataSource,
      markets: (e.markets ?? []).map(toAnalysisMarket),
      closing: closingMarkets(e.closingLine),
    })),
  );

  const doc = {
    sportId,
    window,
    fittedAt: now,
    family: sport.fit.family,
    params: fit?.params ?? null,
    gamesUsed: fit?.gamesUsed ?? games.length,
    blendWeight: fit ? blend.weight : 0,
    blendEvents: blend.rows,
    blendRps: rows.length ? blend.rps : null,
    marketRps: rows.length ? blend.marketRps : null,
    bookRanking,
    bookMargins,
  };
  const written = await upsertModelFitUnlessNewerWindow(sportId, doc);
  log.info({ sportId, window, games: games.length, blendWeight: doc.blendWeight, blendEvents: blend.rows, written }, 'refit');
  return { sportId, window, gamesUsed: doc.gamesUsed, blendWeight: doc.blendWeight, blendEvents: blend.rows, bookRanking, written };
}
