import { marketType } from '../../domain/markets/catalog';
import type { AnalysisMarket } from '../../domain/ai/analysis/types';
import { rankBookmakers } from '../../domain/ai/bookRanking';
import type { ClosingLine } from '../../domain/ingest/closing';
import { isRecord } from '../../domain/records';
import type { AppContext } from '../context';
import { forgetFits, toAnalysisMarket } from './analyze';
import { sportDefinition } from '../../domain/sports/registry';
import { FIT_WINDOW_DAYS, fitPoolWeight, fitSport, type BlendRow, type CompletedGame } from '../../domain/ai/sportFit';
import { DAY_MS, daysBefore } from '../../domain/days';

/** Days of recent events whose quotes rank the bookmakers by typical margin. */
const RANKING_DAYS = 30;

/** A stored closing line's markets, as the analysis reads markets (every item was quoted at the close). */
function closingMarkets(line: ClosingLine | null | undefined): AnalysisMarket[] | null {
  const markets = line?.markets;
  if (!Array.isArray(markets)) return null;
  return markets.map((m) => ({ id: m.id, betTypeSysname: m.betTypeSysname, line: m.line, betItems: m.betItems.map((i) => ({ ...i, isAvailable: true })) }));
}

const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');

/** The market's and the model's views an analysis stored before kickoff (its insight's `blendInputs`), when it stored both. */
function blendInputsOf(insight: Readonly<Record<string, unknown>> | null | undefined): { market: number[]; model: number[] } | null {
  const b = insight?.blendInputs;
  return isRecord(b) && isNumbers(b.market) && isNumbers(b.model) ? { market: b.market, model: b.model } : null;
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
 * replaces a newer one; the same window twice writes the same fit. The world's clock is the fit's
 * now: a replay of 2018 fits on 2018's games (the real clock would see none in its window).
 */
export async function refitJob(ctx: AppContext, sportId: number, window: string): Promise<RefitOutcome> {
  const store = ctx.refit;
  const now = ctx.clock.worldNow();
  const sport = sportDefinition(sportId);
  const since = daysBefore(now, FIT_WINDOW_DAYS);
  const completed = await store.findCompletedGames(sportId, since, now);
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
    const insights = await store.findBlendInputs([...outcomeOf.keys()]);
    for (const i of insights) {
      const inputs = blendInputsOf(i.analysisInsight);
      const score = outcomeOf.get(String(i._id));
      if (!inputs || !score || !(i.analysisTimestamp < i.startDateTime)) continue;
      const [h, a] = score;
      if (!threeWay && h === a) continue;
      rows.push({ market: inputs.market, model: inputs.model, outcome: h > a ? 0 : h === a ? 1 : threeWay ? 2 : 1 });
    }
  }
  const blend = fitPoolWeight(rows);

  // Sharpness: median margin per bookmaker over recent full markets of this sport (closing lines of the started ones).
  const recent = await store.findRecentQuotes(sportId, daysBefore(now, RANKING_DAYS), 5000);
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
  const written = await store.writeFitUnlessNewerWindow(sportId, doc);
  // This process's next analysis reads the new fit.
  forgetFits();
  ctx.log({ component: 'ai-refit' }).info({ sportId, window, games: games.length, blendWeight: doc.blendWeight, blendEvents: blend.rows, written }, 'refit');
  return { sportId, window, gamesUsed: doc.gamesUsed, blendWeight: doc.blendWeight, blendEvents: blend.rows, bookRanking, written };
}
