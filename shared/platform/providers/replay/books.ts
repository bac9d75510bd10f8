import type { FootballDataMatch } from '../../data/footballData';

/**
 * Which columns of a football-data.co.uk row are which bookmaker's prices (see the data folder's
 * README): each named book becomes its own dataSource. Market averages and maxima (Avg, Max, Bb*)
 * are not books and are left out.
 */
export interface BookColumns {
  /** The dataSource name the book is served under. */
  key: string;
  /** Prefix of its 1X2 columns: B365 -> B365H/B365D/B365A, closing B365CH/B365CD/B365CA. */
  result: string;
  /** Prefix of its over/under 2.5 and Asian handicap columns (Pinnacle's is P), when it has them. */
  lines?: string;
}

export const BOOKS: readonly BookColumns[] = [
  { key: 'bet365', result: 'B365', lines: 'B365' },
  { key: 'bwin', result: 'BW' },
  { key: 'interwetten', result: 'IW' },
  { key: 'pinnacle', result: 'PS', lines: 'P' },
  { key: 'williamhill', result: 'WH' },
  { key: 'vcbet', result: 'VC' },
  { key: 'ladbrokes', result: 'LB' },
  { key: 'gamebookers', result: 'GB' },
  { key: 'sportingbet', result: 'SB' },
  { key: 'stanjames', result: 'SJ' },
  { key: 'bluesquare', result: 'BS' },
];

/** One market of a match as the file prices it: per book, the opening and the closing prices (outcome order of the catalog). */
export interface FileMarket {
  betTypeSysname: 'SOCCER_MATCH_RESULT' | 'SOCCER_UNDER_OVER' | 'SOCCER_ASIAN_HANDICAP';
  line: number | null;
  codes: readonly string[];
  /** book -> prices; a book is listed only when every outcome has a price. */
  open: Map<string, number[]>;
  close: Map<string, number[]>;
}

/** Cells of a book found only in part: the row names them in its log line. */
export interface PartialQuote {
  book: string;
  columns: string[];
}

function quote(odds: Record<string, number>, columns: string[], partial: PartialQuote[], book: string): number[] | null {
  const prices = columns.map((c) => odds[c]);
  const present = prices.filter((p) => p !== undefined);
  if (present.length === 0) return null;
  if (present.length < columns.length || prices.some((p) => !(p > 1))) {
    partial.push({ book, columns: columns.filter((c) => !(odds[c] > 1)) });
    return null;
  }
  return prices;
}

/**
 * The markets a row prices: match result, over/under 2.5 and the Asian handicap at the file's
 * line (AHh opening, AHCh closing; when they differ they are two markets, see the provider).
 * A book missing one end keeps the price it has at the other.
 */
export function fileMarkets(m: Pick<FootballDataMatch, 'odds'>): { markets: FileMarket[]; partial: PartialQuote[] } {
  const odds = m.odds;
  const partial: PartialQuote[] = [];
  const result: FileMarket = { betTypeSysname: 'SOCCER_MATCH_RESULT', line: null, codes: ['1', 'X', '2'], open: new Map(), close: new Map() };
  const total: FileMarket = { betTypeSysname: 'SOCCER_UNDER_OVER', line: 2.5, codes: ['O', 'U'], open: new Map(), close: new Map() };
  const openLine = odds.AHh ?? odds.BbAHh;
  const closeLine = odds.AHCh ?? openLine;
  const ahOpen: FileMarket = { betTypeSysname: 'SOCCER_ASIAN_HANDICAP', line: openLine ?? null, codes: ['1', '2'], open: new Map(), close: new Map() };
  const ahClose: FileMarket = closeLine === openLine ? ahOpen : { ...ahOpen, line: closeLine ?? null, open: new Map(), close: new Map() };
  const put = (market: FileMarket, book: string, open: number[] | null, close: number[] | null) => {
    if (open ?? close) market.open.set(book, (open ?? close)!);
    if (close ?? open) market.close.set(book, (close ?? open)!);
  };
  for (const b of BOOKS) {
    const p = b.result;
    put(result, b.key, quote(odds, [`${p}H`, `${p}D`, `${p}A`], partial, b.key), quote(odds, [`${p}CH`, `${p}CD`, `${p}CA`], partial, b.key));
    if (!b.lines) continue;
    const l = b.lines;
    put(total, b.key, quote(odds, [`${l}>2.5`, `${l}<2.5`], partial, b.key), quote(odds, [`${l}C>2.5`, `${l}C<2.5`], partial, b.key));
    const aho = openLine === undefined ? null : quote(odds, [`${l}AHH`, `${l}AHA`], partial, b.key);
    const ahc = closeLine === undefined ? null : quote(odds, [`${l}CAHH`, `${l}CAHA`], partial, b.key);
    if (ahClose === ahOpen) put(ahOpen, b.key, aho, ahc);
    else {
      // The line moved: the opening market holds its opening prices, the closing one its closing prices.
      if (aho) put(ahOpen, b.key, aho, aho);
      if (ahc) put(ahClose, b.key, ahc, ahc);
    }
  }
  const markets = [result, total, ahOpen, ...(ahClose === ahOpen ? [] : [ahClose])].filter((x) => x.open.size > 0 && (x.line !== null || x.betTypeSysname === 'SOCCER_MATCH_RESULT'));
  return { markets, partial };
}

/**
 * A book's price part way from opening to closing (`progress` 0..1), interpolated in implied
 * probability (1/price), so a price drifting from 2.0 to 4.0 passes 2.67 at half way, as the
 * market's probability moves, not 3.0. Two decimals, as the books quote.
 */
export function interpolatePrice(open: number, close: number, progress: number): number {
  const x = Math.min(1, Math.max(0, progress));
  const q = (1 - x) / open + x / close;
  return Math.round(100 / q) / 100;
}
