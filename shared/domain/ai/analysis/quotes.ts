import { marketType, type MarketType } from '../../markets/catalog';
import type { DevigMethod } from '../devig';
import { marketFair, overround, rankBooks, type BookQuote, type MarketFair } from '../fairPrice';
import type { AnalysisBetItem, AnalysisEvent, AnalysisMarket } from './types';

/** A market of the event's sport that the catalog knows, with its type. */
export interface TypedMarket {
  market: AnalysisMarket;
  type: MarketType;
}

/** The item's price per bookmaker: bookPrices, with the event's default provider's price. */
export function itemPrices(item: AnalysisBetItem, defaultSource: string): { book: string; odds: number }[] {
  const map: Record<string, number> = { ...(item.bookPrices ?? {}) };
  if (map[defaultSource] === undefined && Number.isFinite(item.price)) map[defaultSource] = item.price;
  return Object.keys(map)
    .sort()
    .map((book) => ({ book, odds: Number(map[book]) }))
    .filter((q) => Number.isFinite(q.odds) && q.odds > 1);
}

/** Every book quoting every outcome of the market (in the catalog's outcome order). */
export function fullQuotes(type: MarketType, market: AnalysisMarket, defaultSource: string): BookQuote[] {
  const byCode = new Map(market.betItems.filter((i) => i.isAvailable !== false).map((i) => [i.code, new Map(itemPrices(i, defaultSource).map((q) => [q.book, q.odds]))]));
  const codes = type.outcomes.map((o) => o.code);
  const perCode = codes.map((c) => byCode.get(c)).filter((m) => m !== undefined);
  if (perCode.length !== codes.length) return [];
  const out: BookQuote[] = [];
  for (const book of perCode[0].keys()) {
    const odds = perCode.map((m) => m.get(book));
    if (odds.every((o) => o !== undefined)) out.push({ book, odds });
  }
  return out;
}

/** The event's markets the catalog prices for its sport. */
export function typedMarkets(event: AnalysisEvent): TypedMarket[] {
  return event.markets.map((m) => ({ market: m, type: marketType(m.betTypeSysname) })).filter((x): x is TypedMarket => !!x.type && x.type.sportId === event.sportId);
}

/** Step 1, quotes: each market's full quotes by market id. */
export function quotesByMarket(markets: readonly TypedMarket[], defaultSource: string): Map<string, BookQuote[]> {
  return new Map(markets.map(({ market, type }) => [market.id, fullQuotes(type, market, defaultSource)]));
}

/** Step 2, sharpest book: the refit's ranking over many events, else the books' median margin in this one. */
export function sharpestBooks(markets: readonly TypedMarket[], quotes: Map<string, BookQuote[]>, refitRanking: readonly string[] | undefined): readonly string[] {
  if (refitRanking && refitRanking.length > 0) return refitRanking;
  const margins = new Map<string, number[]>();
  for (const { market, type } of markets) {
    if (type.kind === 'doubleChance') continue;
    for (const q of quotes.get(market.id) ?? []) margins.set(q.book, [...(margins.get(q.book) ?? []), overround(q.odds)]);
  }
  return rankBooks(margins);
}

/** Step 3, de-vig: the sharp book's fair price of each fully quoted market, by `method`. */
export function deVigMarkets(markets: readonly TypedMarket[], quotes: Map<string, BookQuote[]>, ranking: readonly string[], method?: DevigMethod): Map<string, MarketFair> {
  const fairs = new Map<string, MarketFair>();
  for (const { market, type } of markets) {
    // Double chance outcomes overlap (their probabilities sum to two): no de-vig applies; the
    // grid prices them from the exclusive markets.
    if (type.kind === 'doubleChance') continue;
    const f = marketFair(quotes.get(market.id) ?? [], ranking, method);
    if (f) fairs.set(market.id, f);
  }
  return fairs;
}
