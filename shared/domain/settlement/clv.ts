import { devigProportional } from '../ai/devig';
import type { ClosingLine, ClosingMarket } from '../ingest/closing';
import { marketType } from '../markets/catalog';

/**
 * Closing line value: how a recommendation's taken price compares with the market's fair price
 * at kickoff. clv = taken odds / closing fair odds - 1 (+0.05: the bet was taken 5 % above the
 * fair closing price). The fair price is the closing price with the margin removed by
 * proportional normalisation, of Pinnacle when it quoted every outcome of the market at the
 * close, else of the books' consensus (docs/settlement.md says why). Pure.
 */

/** The book whose closing price is the benchmark when it quotes the whole market. */
export const CLOSING_REFERENCE_BOOK = 'pinnacle';

export interface ClosingReference {
  /** The dataSource whose prices were de-vigged, or 'consensus'. */
  source: string;
  /** code -> closing price of that source. */
  odds: Map<string, number>;
  /** code -> de-vigged (fair) closing probability. */
  probabilities: Map<string, number>;
}

/** The market's closing benchmark: Pinnacle's prices when complete, else the consensus; null when no complete set of prices exists. */
export function closingReference(market: ClosingMarket, reference = CLOSING_REFERENCE_BOOK): ClosingReference | null {
  const codes = marketType(market.betTypeSysname)?.outcomes.map((o) => o.code) ?? market.betItems.map((it) => it.code);
  const byCode = new Map(market.betItems.map((it) => [it.code, it]));
  const items = codes.map((c) => byCode.get(c)).filter((it) => it !== undefined);
  if (items.length !== codes.length) return null;
  const usable = (prices: (number | undefined)[]): prices is number[] => prices.every((p) => typeof p === 'number' && Number.isFinite(p) && p > 1);
  const sharp = items.map((it) => it.bookPrices?.[reference]);
  const consensus = items.map((it) => it.price);
  const [source, prices] = usable(sharp) ? [reference, sharp] : usable(consensus) ? ['consensus', consensus] : [null, null];
  if (!source || !prices) return null;
  const fair = devigProportional(prices).probabilities;
  return { source, odds: new Map(codes.map((c, i) => [c, prices[i]])), probabilities: new Map(codes.map((c, i) => [c, fair[i]])) };
}

export interface ClosingValue {
  /** The benchmark's closing price of the recommended outcome (null: no closing line for it). */
  closingOdds: number | null;
  /** taken odds / de-vigged closing fair odds - 1, to 6 decimals (null with closingOdds). */
  clv: number | null;
}

export const NO_CLOSING: ClosingValue = { closingOdds: null, clv: null };

/** taken odds x fair closing probability - 1 (the same as odds / fair odds - 1). */
export function clvOf(takenOdds: number, fairProbability: number): number {
  return Math.round((takenOdds * fairProbability - 1) * 1e6) / 1e6;
}

export function closingValue(rec: { betItemId?: string | null; odds: number }, line: ClosingLine | null | undefined): ClosingValue {
  if (!line || !rec.betItemId) return NO_CLOSING;
  const market = line.markets.find((m) => m.betItems.some((it) => it.id === rec.betItemId));
  const item = market?.betItems.find((it) => it.id === rec.betItemId);
  if (!market || !item) return NO_CLOSING;
  const ref = closingReference(market);
  const closingOdds = ref?.odds.get(item.code);
  const fair = ref?.probabilities.get(item.code);
  // An outcome the catalog does not list for its market has no benchmark price.
  if (closingOdds === undefined || fair === undefined) return NO_CLOSING;
  return { closingOdds, clv: clvOf(rec.odds, fair) };
}

/**
 * A pick's closing value from its legs': a single's is its leg's; a parlay's legs are on
 * different events, so its fair closing probability is the product of theirs, and
 * clv = totalOdds x product(p) - 1 = product(1 + clv of each leg) - 1. The closing odds are
 * the product of the legs' closing prices (a parlay at the close). Null when any leg has none.
 */
export function pickClosingValue(legs: readonly ClosingValue[]): ClosingValue {
  if (legs.length === 0) return NO_CLOSING;
  let closingOdds = 1;
  let growth = 1;
  for (const l of legs) {
    if (l.closingOdds === null || l.clv === null) return NO_CLOSING;
    closingOdds *= l.closingOdds;
    growth *= 1 + l.clv;
  }
  const clv = growth - 1;
  return { closingOdds: Math.round(closingOdds * 1e4) / 1e4, clv: Math.round(clv * 1e6) / 1e6 };
}
