import { marketType } from '../../markets/catalog';
import { childLogger } from '../../logger';
import { findInsightBlendInputsByEventIds, upsertModelFitUnlessNewerWindow } from '../../db/repositories/ai';
import { findCompletedEventScoresOfSport, findEventMarketsOfSportSince } from '../../db/repositories/events';
import { MAIN_MARKET, fullQuotes } from '../eventAnalysis';
import { toAnalysisMarket } from './analyze';
import { median, overround } from '../fairPrice';
import { FIT_WINDOW_DAYS, SPORT_FAMILY, fitPoolWeight, fitSport, type BlendRow, type CompletedGame } from '../sportFit';
import { DAY_MS, daysBefore } from '../../days';

const log = childLogger({ component: 'ai-refit' });
/** Days of recent events whose quotes rank the bookmakers by typical margin. */
const RANKING_DAYS = 30;
const RANKING_MIN_MARKETS = 20;

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
  const threeWay = marketType(MAIN_MARKET[sportId])?.kind === 'result3';
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

  // Sharpness: median margin per bookmaker over recent full markets of this sport.
  const recent = await findEventMarketsOfSportSince(sportId, daysBefore(now, RANKING_DAYS), 5000);
  const margins = new Map<string, number[]>();
  for (const e of recent) {
    for (const m of e.markets ?? []) {
      const type = marketType(m.betTypeSysname);
      if (!type || type.kind === 'doubleChance') continue;
      for (const q of fullQuotes(type, toAnalysisMarket(m), e.dataSource)) margins.set(q.book, [...(margins.get(q.book) ?? []), overround(q.odds)]);
    }
  }
  const bookMargins = Object.fromEntries([...margins].filter(([, v]) => v.length >= RANKING_MIN_MARKETS).map(([b, v]) => [b, median(v)]));
  const bookRanking = Object.entries(bookMargins)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .map(([b]) => b);

  const doc = {
    sportId,
    window,
    fittedAt: now,
    family: SPORT_FAMILY[sportId],
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
