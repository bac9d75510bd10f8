import { median, overround } from './fairPrice';
import { fullQuotes } from './analysis/quotes';
import type { AnalysisMarket } from './analysis/types';
import { marketType } from '../markets/catalog';

/**
 * The bookmakers ranked by sharpness (median margin of their full markets, lowest first) over a
 * sport's recent events. An event still quoted counts by its current markets; an event past
 * kickoff, whose markets are suspended, by its closing line (each book's last pre-match prices):
 * without it a replay, which lists only the next three days, never had enough markets for a
 * ranking, and each analysis fell back to the event's own lowest-margin book. Pure.
 */
export interface RankingEvent {
  dataSource: string;
  markets: readonly AnalysisMarket[];
  /** The closing line's markets (null before kickoff or when none was captured). */
  closing: readonly AnalysisMarket[] | null;
}

export const RANKING_MIN_MARKETS = 20;

const quoted = (markets: readonly AnalysisMarket[]) => markets.some((m) => m.betItems.some((i) => i.isAvailable !== false));

export function rankBookmakers(events: readonly RankingEvent[], minMarkets = RANKING_MIN_MARKETS): { bookMargins: Record<string, number>; bookRanking: string[] } {
  const margins = new Map<string, number[]>();
  for (const e of events) {
    const markets = quoted(e.markets) ? e.markets : (e.closing ?? []);
    for (const m of markets) {
      const type = marketType(m.betTypeSysname);
      if (!type || type.kind === 'doubleChance') continue;
      for (const q of fullQuotes(type, m, e.dataSource)) margins.set(q.book, [...(margins.get(q.book) ?? []), overround(q.odds)]);
    }
  }
  const bookMargins = Object.fromEntries([...margins].filter(([, v]) => v.length >= minMarkets).map(([b, v]) => [b, median(v)]));
  const bookRanking = Object.entries(bookMargins)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .map(([b]) => b);
  return { bookMargins, bookRanking };
}
