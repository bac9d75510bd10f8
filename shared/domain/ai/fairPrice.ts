import { devig, type DevigMethod } from './devig';

/**
 * The market's fair probabilities for one market from several bookmakers' quotes: the sharpest
 * bookmaker's price with its margin removed (by the model's method, AI_DEVIG: Shin by default,
 * falling back to power, then proportional), and
 * the consensus of the others beside it (for uncertainty and dispersion, never mixed in: on EPL
 * data the soft books' consensus adds almost nothing to Pinnacle's price, docs/ai.md).
 *
 * "Sharpest" is the bookmaker with the lowest TYPICAL margin (median over many markets), not the
 * lowest margin on this one market: a promotional boost makes one market cheap without making
 * the book well informed.
 */
export interface BookQuote {
  book: string;
  /** Decimal odds of every outcome of the market, in one fixed outcome order. */
  odds: readonly number[];
}

export interface MarketFair {
  sharpBook: string;
  probabilities: number[];
  method: DevigMethod;
  /** The sharp book's overround on this market (0.025 = 2.5 %). */
  margin: number;
  /** Mean de-vigged probabilities of the other books; null when the sharp book is alone. */
  consensus: number[] | null;
  books: number;
}

/** Overround of a full set of decimal odds. */
export function overround(odds: readonly number[]): number {
  return odds.reduce((s, o) => s + 1 / o, 0) - 1;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Books ordered sharpest first by the median of their margins; books with fewer than
 * `minSamples` margins come after the ranked ones, in the order given.
 */
export function rankBooks(margins: ReadonlyMap<string, readonly number[]>, minSamples = 1, fallbackOrder: readonly string[] = []): string[] {
  const ranked = [...margins.entries()]
    .filter(([, m]) => m.length >= minSamples)
    .map(([book, m]) => ({ book, median: median(m) }))
    .sort((a, b) => a.median - b.median || a.book.localeCompare(b.book))
    .map((x) => x.book);
  const rest = [...fallbackOrder, ...[...margins.keys()].sort()].filter((b, i, all) => !ranked.includes(b) && all.indexOf(b) === i);
  return [...ranked, ...rest];
}

function valid(q: BookQuote, width: number): boolean {
  return q.odds.length === width && q.odds.every((o) => Number.isFinite(o) && o > 1) && overround(q.odds) > -0.05;
}

/**
 * Fair probabilities from the best-ranked book quoting the whole market, de-vigged by `method`
 * (devig's default without one).
 * `ranking` lists books sharpest first; a book missing from it ranks after every listed one. Null
 * without a usable quote.
 */
export function marketFair(quotes: readonly BookQuote[], ranking: readonly string[], method?: DevigMethod): MarketFair | null {
  if (quotes.length === 0) return null;
  const width = quotes[0].odds.length;
  const usable = quotes.filter((q) => valid(q, width));
  if (usable.length === 0) return null;
  const rank = (b: string) => {
    const i = ranking.indexOf(b);
    return i < 0 ? ranking.length : i;
  };
  const sharp = [...usable].sort((a, b) => rank(a.book) - rank(b.book) || overround(a.odds) - overround(b.odds) || a.book.localeCompare(b.book))[0];
  const fairOf = (q: BookQuote) => devig(q.odds, method);
  const fair = fairOf(sharp);
  const others = usable.filter((q) => q !== sharp).map((q) => fairOf(q).probabilities);
  const consensus = others.length ? Array.from({ length: width }, (_, k) => others.reduce((s, p) => s + p[k], 0) / others.length) : null;
  return { sharpBook: sharp.book, probabilities: fair.probabilities, method: fair.method, margin: fair.margin, consensus, books: usable.length };
}

/** The highest price on one outcome across books (ties: the first in the given order). */
export function bestPrice(prices: readonly { book: string; odds: number }[]): { book: string; odds: number } | null {
  let best: { book: string; odds: number } | null = null;
  for (const p of prices) if (Number.isFinite(p.odds) && p.odds > 1 && (!best || p.odds > best.odds)) best = p;
  return best;
}
