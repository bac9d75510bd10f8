import { devigProportional, devigShin } from '../domain/ai/devig';
import { bestPrice, marketFair, overround, rankBooks } from '../domain/ai/fairPrice';
import { dcLambdas, dcScoreGrid, fitDixonColes, lambdasFromMarket, DEFAULT_RIDGE, DEFAULT_XI, type DcMatch, type DcParams } from '../domain/ai/dixonColes';
import { bootstrap, brier, calibrationTable, logLoss, maxDrawdown, mean, pairedDifference, rps, standardError, type CalibrationBin, type Interval, type Triple } from '../domain/ai/metrics';
import { resultProbabilities } from '../domain/ai/scoreGrid';
import { confidenceLevel, edgePercentage, kellyFraction, marginOfSafety, MAX_CREDIBLE_EDGE, PRICE_MOVE_SCALE, probabilityStandardError, type Confidence } from '../domain/ai/staking';
import { epochDay } from '../domain/days';
import type { FootballDataMatch } from '../platform/data/footballData';

/**
 * Walk-forward backtest of the soccer 1X2 model on football-data.co.uk rows. Pure: the caller
 * reads the files. The rule that keeps it honest: a match's prediction may use results of
 * matches on EARLIER days and that match's own pre-kickoff prices (the columns without C:
 * PSH, B365H, MaxH, ...); closing prices are only the benchmark, and everything fitted (blend
 * weight, price-move scale) is fitted on the warm-up seasons only.
 *
 * The strategy is the product's: the fair price is the sharpest book's (lowest typical margin:
 * Pinnacle from 2012/13) de-vigged by Shin, blended with the statistical model where the fitted
 * weight says so; a bet is placed where ANY bookmaker's pre-kickoff price beats the fair price
 * by the minimum edge (price shopping), at that bookmaker's price.
 */
/** What the backtest reads of a football-data row (odds: PSH, PSCH, B365H, ...), with its season. */
export interface BacktestMatch extends Pick<FootballDataMatch, 'kickoff' | 'homeTeam' | 'awayTeam' | 'fthg' | 'ftag' | 'odds'> {
  season: number;
}

export interface BacktestOptions {
  fromSeason: number;
  toSeason: number;
  /** Minimum edge (percent) at opening prices for a bet to be placed. */
  minEdge: number;
  seed: number;
  xi?: number;
  ridge?: number;
  /** Days of history the Dixon-Coles fit looks back over. */
  windowDays?: number;
  /** Decay per day of the price-based ratings: prices already summarise history, so faster. */
  ratingsXi?: number;
  /**
   * Diagnostic only: use these blend weights instead of the ones fitted on the warm-up
   * seasons (to study what the statistical components' disagreements with the market earn).
   */
  blendOverride?: BlendWeights;
  /**
   * Bookmakers whose pre-kickoff prices may be bet (football-data prefixes). 'Max' is the market
   * maximum column (MaxH from 2019/20, BbMxH before): a price some bookmaker offered, unnamed.
   */
  books?: readonly string[];
  bootstrapResamples?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Named bookmakers of football-data files: candidates for the sharp price and for bets. */
export const NAMED_BOOKS = ['PS', 'B365', 'BW', 'IW', 'WH', 'VC', 'LB', 'GB', 'SB', 'SJ', 'BS'] as const;
export const DEFAULT_BET_BOOKS: readonly string[] = NAMED_BOOKS;
/** Aggregate columns: which prefix each reads, newest naming first. Never a sharp-price source. */
export const AGGREGATE_BOOKS: Record<string, string[]> = { Max: ['Max', 'BbMx'], Avg: ['Avg', 'BbAv'] };
/** Margins remembered per book to rank sharpness (about half a season of one league). */
const RANKING_WINDOW = 200;

/** Order of preference before any book has a margin history to rank it by. */
export const OPENING_SOURCES = ['PS', 'B365', 'WH', 'IW', 'LB', 'VC', 'BW', 'GB', 'SB', 'SJ', 'BS'] as const;
export const CLOSING_SOURCE = 'PSC';

export function oddsTriple(odds: Record<string, number>, prefix: string): [number, number, number] | null {
  const t: [number, number, number] = [odds[prefix + 'H'], odds[prefix + 'D'], odds[prefix + 'A']];
  return t.every((o) => Number.isFinite(o) && o > 1) ? t : null;
}

/** Pre-kickoff 1X2 prices of one book, an aggregate (Max, Avg) read under its era's prefix. */
export function bookTriple(odds: Record<string, number>, book: string): [number, number, number] | null {
  for (const prefix of AGGREGATE_BOOKS[book] ?? [book]) {
    const t = oddsTriple(odds, prefix);
    if (t) return t;
  }
  return null;
}

export interface Quote {
  book: string;
  odds: [number, number, number];
}

/** The named books' pre-kickoff quotes of a row. */
export function namedQuotes(odds: Record<string, number>): Quote[] {
  return NAMED_BOOKS.flatMap((book) => {
    const t = oddsTriple(odds, book);
    return t ? [{ book, odds: t }] : [];
  });
}

/** The sharpest named book's quote under a ranking (sharpest first). */
export function sharpQuote(odds: Record<string, number>, ranking: readonly string[]): Quote | null {
  const quotes = namedQuotes(odds);
  const fair = marketFair(quotes, ranking);
  return fair ? (quotes.find((q) => q.book === fair.sharpBook) ?? null) : null;
}

/** Kept for callers that want the first source by fixed preference. */
export function openingOdds(odds: Record<string, number>): { source: string; odds: [number, number, number] } | null {
  const q = sharpQuote(odds, OPENING_SOURCES);
  return q ? { source: q.book, odds: q.odds } : null;
}

/** What the walk-forward knows about one match before kickoff, plus its result for scoring. */
export interface MatchForecast {
  index: number;
  season: number;
  kickoff: Date;
  homeTeam: string;
  awayTeam: string;
  outcome: number;
  /** The sharpest book quoting the match (lowest median margin over earlier matches). */
  openSource: string;
  openOdds: [number, number, number];
  /** Pre-kickoff quotes of the bettable books (options.books). */
  quotes: Quote[];
  /** Mean Shin probabilities of the other named books; null when the sharp book is alone. */
  consensus: Triple | null;
  /** Opening de-vigged proportionally: the benchmark, as the data README measures it. */
  open: Triple;
  /** Opening de-vigged by Shin: the model's market input. */
  openShin: Triple;
  close: Triple | null;
  /** Closing Pinnacle de-vigged by Shin, the same method as the fair price: the CLV benchmark. */
  closeShin: Triple | null;
  rho: number;
  lambdaMarket: [number, number];
  lambdaDc: [number, number];
  /**
   * Expected goals from team ratings fitted to EARLIER matches' prices (closing where the file
   * has them: those matches have kicked off), i.e. the market's latest view of each team.
   */
  lambdaRatings: [number, number];
  /** Standard errors of log lambdaHome / log lambdaAway from the Dixon-Coles fit. */
  logLambdaSE: [number, number];
  dcMatchesUsed: number;
}

function outcomeOf(h: number, a: number): number {
  return h > a ? 0 : h === a ? 1 : 2;
}

function triple(r: { home: number; draw: number; away: number }): Triple {
  return [r.home, r.draw, r.away];
}

/** A three-way market's probabilities (devig and marketFair return arrays as wide as their odds). */
function tripleOf(p: readonly number[]): Triple {
  if (p.length !== 3) throw new RangeError(`expected three probabilities, got ${p.length}`);
  return [p[0], p[1], p[2]];
}

/**
 * Pass 1: for every match with an opening price and a result, the market's and the Dixon-Coles
 * expected goals, refitting once per match day on the results of earlier days only.
 */
export function walkForward(matches: readonly BacktestMatch[], options: Pick<BacktestOptions, 'toSeason' | 'xi' | 'ridge' | 'windowDays' | 'ratingsXi' | 'onProgress' | 'books'>): MatchForecast[] {
  const betBooks = options.books ?? DEFAULT_BET_BOOKS;
  const xi = options.xi ?? DEFAULT_XI;
  const ratingsXi = options.ratingsXi ?? 0.01;
  const ridge = options.ridge ?? DEFAULT_RIDGE;
  const windowDays = options.windowDays ?? 1100;
  const sorted = matches
    .map((m, index) => ({ m, index, day: epochDay(m.kickoff.getTime()) }))
    .filter((x) => x.m.season <= options.toSeason)
    .sort((a, b) => a.day - b.day || a.index - b.index);
  const firstSeason = sorted.length ? sorted[0].m.season : 0;
  const days = [...new Set(sorted.map((x) => x.day))];
  const history: DcMatch[] = [];
  const priceHistory: DcMatch[] = [];
  const out: MatchForecast[] = [];
  let params: DcParams | undefined;
  let ratingParams: DcParams | undefined;
  let cursor = 0;
  const margins = new Map<string, number[]>();
  days.forEach((day, dayIndex) => {
    options.onProgress?.(dayIndex, days.length);
    const today: typeof sorted = [];
    while (cursor < sorted.length && sorted[cursor].day === day) today.push(sorted[cursor++]);
    // Sharpness from earlier days' margins only.
    const ranking = rankBooks(margins, 50, OPENING_SOURCES);
    const toPredict = today.flatMap(({ m, index }) => {
      if (m.season <= firstSeason || m.fthg === null || m.ftag === null) return [];
      const quotes = namedQuotes(m.odds);
      const fair = marketFair(quotes, ranking);
      const open = fair && quotes.find((q) => q.book === fair.sharpBook);
      return fair && open ? [{ m, index, homeGoals: m.fthg, awayGoals: m.ftag, open, fair }] : [];
    });
    if (toPredict.length > 0 && history.length >= 200 && priceHistory.length >= 200) {
      const fit = fitDixonColes(history, { now: day, xi, ridge, maxAgeDays: windowDays, init: params });
      params = fit.params;
      const ratings = fitDixonColes(priceHistory, { now: day, xi: ratingsXi, ridge, maxAgeDays: 500, init: ratingParams ?? { ...fit.params, rho: 0 } });
      ratingParams = ratings.params;
      const seOf = (team: string, kind: 'attack' | 'defence') => {
        const i = fit.params.teams.indexOf(team);
        return i < 0 ? 1 / Math.sqrt(ridge) : kind === 'attack' ? fit.attackSE[i] : fit.defenceSE[i];
      };
      for (const { m, index, homeGoals, awayGoals, open, fair } of toPredict) {
        const shin = tripleOf(fair.probabilities);
        const inv = lambdasFromMarket({ home: shin[0], draw: shin[1], away: shin[2] }, fit.params.rho);
        const h = fit.params.teams.indexOf(m.homeTeam);
        const a = fit.params.teams.indexOf(m.awayTeam);
        const p = fit.params;
        const lambdaDc: [number, number] = [
          Math.exp(p.intercept + p.homeAdvantage + (h < 0 ? 0 : p.attack[h]) + (a < 0 ? 0 : p.defence[a])),
          Math.exp(p.intercept + (a < 0 ? 0 : p.attack[a]) + (h < 0 ? 0 : p.defence[h])),
        ];
        const close = oddsTriple(m.odds, CLOSING_SOURCE);
        const rated = dcLambdas(ratings.params, m.homeTeam, m.awayTeam);
        out.push({
          index,
          season: m.season,
          kickoff: m.kickoff,
          homeTeam: m.homeTeam,
          awayTeam: m.awayTeam,
          outcome: outcomeOf(homeGoals, awayGoals),
          openSource: open.book,
          openOdds: open.odds,
          quotes: betBooks.flatMap((book) => {
            const t = bookTriple(m.odds, book);
            return t ? [{ book, odds: t }] : [];
          }),
          consensus: fair.consensus && tripleOf(fair.consensus),
          open: tripleOf(devigProportional(open.odds).probabilities),
          openShin: shin,
          close: close ? tripleOf(devigProportional(close).probabilities) : null,
          closeShin: close ? tripleOf(devigShin(close).probabilities) : null,
          rho: p.rho,
          lambdaMarket: [inv.lambdaHome, inv.lambdaAway],
          lambdaDc,
          lambdaRatings: [rated.lambdaHome, rated.lambdaAway],
          logLambdaSE: [Math.hypot(seOf(m.homeTeam, 'attack'), seOf(m.awayTeam, 'defence')), Math.hypot(seOf(m.awayTeam, 'attack'), seOf(m.homeTeam, 'defence'))],
          dcMatchesUsed: fit.matchesUsed,
        });
      }
    }
    // Results and closing prices enter the histories only after the whole day is predicted.
    for (const { m } of today) {
      if (m.fthg !== null && m.ftag !== null) history.push({ home: m.homeTeam, away: m.awayTeam, homeGoals: m.fthg, awayGoals: m.ftag, day });
      for (const q of namedQuotes(m.odds)) {
        const list = margins.get(q.book) ?? [];
        list.push(overround(q.odds));
        if (list.length > RANKING_WINDOW) list.shift();
        margins.set(q.book, list);
      }
      const priced = oddsTriple(m.odds, CLOSING_SOURCE) ?? sharpQuote(m.odds, ranking)?.odds;
      if (priced) {
        const q = devigProportional(priced).probabilities;
        const inv = lambdasFromMarket({ home: q[0], draw: q[1], away: q[2] }, params?.rho ?? -0.05);
        priceHistory.push({ home: m.homeTeam, away: m.awayTeam, homeGoals: inv.lambdaHome, awayGoals: inv.lambdaAway, day });
      }
    }
  });
  options.onProgress?.(days.length, days.length);
  return out;
}

/** Weights of the two statistical views against the opening market (the rest). */
export interface BlendWeights {
  dixonColes: number;
  ratings: number;
}

export const MARKET_ONLY: BlendWeights = { dixonColes: 0, ratings: 0 };

/** Expected goals blended on the log scale; all-zero weights reproduce the opening market. */
export function blendLambdas(f: MatchForecast, w: BlendWeights): [number, number] {
  const wm = 1 - w.dixonColes - w.ratings;
  const at = (k: 0 | 1) => Math.exp(wm * Math.log(f.lambdaMarket[k]) + w.dixonColes * Math.log(f.lambdaDc[k]) + w.ratings * Math.log(f.lambdaRatings[k]));
  return [at(0), at(1)];
}

export function blendedProbabilities(f: MatchForecast, w: BlendWeights): Triple {
  const [lh, la] = blendLambdas(f, w);
  return triple(resultProbabilities(dcScoreGrid(lh, la, f.rho)));
}

/**
 * Standard errors of the blended 1X2 from the Dixon-Coles fit's lambda uncertainty (delta
 * method), scaled by its weight; the price-based ratings are treated as exact.
 */
export function blendedStandardErrors(f: MatchForecast, w: BlendWeights): Triple {
  const [lh, la] = blendLambdas(f, w);
  const eps = 1e-4;
  const at = (dh: number, da: number) => triple(resultProbabilities(dcScoreGrid(lh * Math.exp(dh), la * Math.exp(da), f.rho)));
  const hp = at(eps, 0);
  const hm = at(-eps, 0);
  const ap = at(0, eps);
  const am = at(0, -eps);
  const se = (k: 0 | 1 | 2) => {
    const dh = (hp[k] - hm[k]) / (2 * eps);
    const da = (ap[k] - am[k]) / (2 * eps);
    return w.dixonColes * Math.hypot(dh * f.logLambdaSE[0], da * f.logLambdaSE[1]);
  };
  return [se(0), se(1), se(2)];
}

/**
 * Blend weights (steps of 0.05) minimising mean RPS on the given (warm-up) forecasts:
 * the ratings weight first, then the Dixon-Coles weight given it.
 */
export function fitBlendWeight(forecasts: readonly MatchForecast[]): { weights: BlendWeights; rps: number } {
  const score = (w: BlendWeights) => mean(forecasts.map((f) => rps(blendedProbabilities(f, w), f.outcome)));
  let best = { weights: MARKET_ONLY, rps: score(MARKET_ONLY) };
  for (let r = 0.05; r <= 1.0001; r += 0.05) {
    const w = { dixonColes: 0, ratings: Math.round(r * 100) / 100 };
    const v = score(w);
    if (v < best.rps) best = { weights: w, rps: v };
  }
  const ratings = best.weights.ratings;
  for (let d = 0.05; d <= 1.0001 - ratings; d += 0.05) {
    const w = { dixonColes: Math.round(d * 100) / 100, ratings };
    const v = score(w);
    if (v < best.rps) best = { weights: w, rps: v };
  }
  return best;
}

export interface ScoreSet {
  rps: number;
  logLoss: number;
  brier: number;
}

export interface BetRecord {
  kickoff: string;
  season: number;
  match: string;
  outcome: 'H' | 'D' | 'A';
  /** The bookmaker whose pre-kickoff price was taken (football-data prefix). */
  book: string;
  odds: number;
  probability: number;
  edgePercentage: number;
  standardError: number;
  /** (probability - 1/odds) / standardError: see confidenceLevel. */
  marginOfSafety: number;
  kellyStake: number;
  confidence: Confidence;
  /** odds x Shin-de-vigged Pinnacle closing probability - 1. */
  clv: number;
  /** The same against the proportionally de-vigged close (more generous to longshots). */
  clvProportional: number;
  won: boolean;
}

export interface ClvSummary {
  bets: number;
  mean: number;
  standardError: number;
  beatCloseShare: number;
  /** Flat-stake return per unit staked, with a bootstrap interval. */
  flatRoi: Interval;
}

export interface BacktestReport {
  seasons: { from: number; to: number };
  matches: number;
  /** `blendWeights` fitted on the warm-up; `usedWeights` differ only under blendOverride. */
  warmup: {
    matches: number;
    blendWeights: BlendWeights;
    usedWeights: BlendWeights;
    rps: number;
    marketRps: number;
    seasons: number[];
    /** Typical move of the sharp price to the close per sqrt(p(1-p)), fitted on the warm-up. */
    priceMoveScale: number;
    /** The same betting rule on the warm-up seasons (in sample for the fitted price-move scale). */
    clv: ClvSummary & { byConfidence: Record<Confidence, ClvSummary> };
  };
  openingSources: Record<string, number>;
  books: readonly string[];
  scores: { model: ScoreSet; dixonColes: ScoreSet; ratings: ScoreSet; openShin: ScoreSet; open: ScoreSet; close: ScoreSet };
  differences: {
    modelMinusClose: Record<keyof ScoreSet, Interval>;
    modelMinusOpen: Record<keyof ScoreSet, Interval>;
  };
  calibration: { model: CalibrationBin[]; close: CalibrationBin[]; modelMaxGapPoints: number; closeMaxGapPoints: number };
  clv: ClvSummary & { byConfidence: Record<Confidence, ClvSummary>; proportionalMean: number; betsByBook: Record<string, number> };
  roi: {
    flat: { bets: number; staked: number; profit: number; roi: Interval; maxDrawdownUnits: number };
    kelly: { bets: number; staked: number; profit: number; roi: Interval; finalBankroll: number; maxDrawdownShare: number };
  };
  series: { flatProfit: number[]; kellyBankroll: number[] };
  bets: BetRecord[];
}

function scoreSet(preds: readonly Triple[], outcomes: readonly number[]): ScoreSet {
  return {
    rps: mean(preds.map((p, i) => rps(p, outcomes[i]))),
    logLoss: mean(preds.map((p, i) => logLoss(p, outcomes[i]))),
    brier: mean(preds.map((p, i) => brier(p, outcomes[i]))),
  };
}

function meanRoi(rets: readonly number[], seed: number, resamples?: number): Interval {
  return bootstrap(
    rets.length,
    (idx) => {
      let s = 0;
      for (let i = 0; i < idx.length; i++) s += rets[idx[i]];
      return idx.length ? s / idx.length : NaN;
    },
    seed,
    resamples,
  );
}

function clvSummary(bets: readonly BetRecord[], seed: number, resamples?: number): ClvSummary {
  return {
    bets: bets.length,
    mean: mean(bets.map((b) => b.clv)),
    standardError: standardError(bets.map((b) => b.clv)),
    beatCloseShare: bets.length ? bets.filter((b) => b.clv > 0).length / bets.length : NaN,
    flatRoi: meanRoi(
      bets.map((b) => (b.won ? b.odds - 1 : -1)),
      seed,
      resamples,
    ),
  };
}

function byConfidence(bets: readonly BetRecord[], seed: number, resamples?: number): Record<Confidence, ClvSummary> {
  const of = (c: Confidence, i: number) =>
    clvSummary(
      bets.filter((b) => b.confidence === c),
      seed + 10 * i,
      resamples,
    );
  return { High: of('High', 0), Medium: of('Medium', 1), Low: of('Low', 2) };
}

/**
 * Typical move of the sharp price to the close, per sqrt(p(1-p)): root mean square over every
 * outcome of forecasts that have a close. The default when none has.
 */
export function fitPriceMoveScale(forecasts: readonly MatchForecast[]): number {
  let sum = 0;
  let n = 0;
  for (const f of forecasts) {
    if (!f.closeShin) continue;
    for (let k = 0; k < 3; k++) {
      const p = f.openShin[k];
      sum += (f.closeShin[k] - p) ** 2 / (p * (1 - p));
      n++;
    }
  }
  return n ? Math.sqrt(sum / n) : PRICE_MOVE_SCALE;
}

/**
 * The betting rule: per outcome, the best pre-kickoff price among the bettable books; a bet
 * when its edge against the fair probability is at least minEdge (and credible).
 */
export function placeBets(forecasts: readonly MatchForecast[], w: BlendWeights, minEdge: number, priceMoveScale: number): BetRecord[] {
  const bets: BetRecord[] = [];
  for (const f of forecasts) {
    if (!f.closeShin || !f.close) continue;
    const p = blendedProbabilities(f, w);
    const fitSe = blendedStandardErrors(f, w);
    for (let k = 0; k < 3; k++) {
      const best = bestPrice(f.quotes.map((q) => ({ book: q.book, odds: q.odds[k] })));
      if (!best) continue;
      const edge = edgePercentage(p[k], best.odds);
      if (edge < minEdge || edge > MAX_CREDIBLE_EDGE) continue;
      // The reference is the other books' consensus; when the model leads, the market too.
      const reference = f.consensus ? f.consensus[k] : undefined;
      const se = Math.hypot(
        probabilityStandardError({ probability: p[k], fitStandardError: fitSe[k], referenceProbability: reference, priceMoveScale }),
        w.dixonColes + w.ratings > 0 ? 0.25 * Math.abs(p[k] - f.openShin[k]) : 0,
      );
      bets.push({
        kickoff: f.kickoff.toISOString(),
        season: f.season,
        match: `${f.homeTeam} v ${f.awayTeam}`,
        outcome: (['H', 'D', 'A'] as const)[k],
        book: best.book,
        odds: best.odds,
        probability: p[k],
        edgePercentage: edge,
        standardError: se,
        marginOfSafety: marginOfSafety({ probability: p[k], odds: best.odds, standardError: se }),
        kellyStake: kellyFraction(p[k], best.odds),
        confidence: confidenceLevel({ edgePercentage: edge, probability: p[k], odds: best.odds, standardError: se }),
        clv: best.odds * f.closeShin[k] - 1,
        clvProportional: best.odds * f.close[k] - 1,
        won: f.outcome === k,
      });
    }
  }
  return bets;
}

export function runBacktest(matches: readonly BacktestMatch[], options: BacktestOptions): BacktestReport {
  const forecasts = walkForward(matches, options);
  const predictedSeasons = [...new Set(forecasts.map((f) => f.season))].sort((a, b) => a - b);
  // The first predicted season is the Dixon-Coles burn-in: too little history to judge the blend.
  const warmupSeasons = predictedSeasons.filter((s) => s < options.fromSeason && s > predictedSeasons[0]);
  const warmup = forecasts.filter((f) => warmupSeasons.includes(f.season));
  const blend = warmup.length > 0 ? fitBlendWeight(warmup) : { weights: MARKET_ONLY, rps: NaN };
  const w = options.blendOverride ?? blend.weights;
  const moveScale = fitPriceMoveScale(warmup);
  const resamples = options.bootstrapResamples;
  const test = forecasts.filter((f): f is MatchForecast & { close: Triple } => f.season >= options.fromSeason && f.season <= options.toSeason && f.close !== null);
  if (test.length === 0) throw new RangeError(`no match between ${options.fromSeason} and ${options.toSeason} has opening and closing prices`);
  const outcomes = test.map((f) => f.outcome);
  const model = test.map((f) => blendedProbabilities(f, w));
  const dc = test.map((f) => triple(resultProbabilities(dcScoreGrid(f.lambdaDc[0], f.lambdaDc[1], f.rho))));
  const open = test.map((f) => f.open);
  const close = test.map((f) => f.close);
  const perMatch = (preds: readonly Triple[], rule: (p: Triple, o: number) => number) => preds.map((p, i) => rule(p, outcomes[i]));
  const diff = (other: readonly Triple[], salt: number) => ({
    rps: pairedDifference(perMatch(model, rps), perMatch(other, rps), options.seed + salt, resamples),
    logLoss: pairedDifference(perMatch(model, logLoss), perMatch(other, logLoss), options.seed + salt + 1, resamples),
    brier: pairedDifference(perMatch(model, brier), perMatch(other, brier), options.seed + salt + 2, resamples),
  });
  const pairs = (preds: readonly Triple[]) => preds.flatMap((p, i) => [0, 1, 2].map((k) => ({ p: p[k], hit: outcomes[i] === k })));
  const calModel = calibrationTable(pairs(model));
  const calClose = calibrationTable(pairs(close));
  const maxGap = (bins: CalibrationBin[]) => Math.max(...bins.map((b) => 100 * Math.abs(b.predicted - b.observed)));

  const bets = placeBets(test, w, options.minEdge, moveScale);
  const warmupBets = placeBets(warmup, w, options.minEdge, moveScale);

  // Flat stakes, and quarter Kelly where the same day's bets are sized from the bankroll at the
  // start of that day (they run simultaneously).
  const flatProfit: number[] = [];
  const kellyBankroll: number[] = [];
  let flat = 0;
  let bankroll = 1;
  let kellyStaked = 0;
  let dayStart = bankroll;
  let lastDay = '';
  const kellyReturns: { stake: number; ret: number }[] = [];
  for (const b of bets) {
    const day = b.kickoff.slice(0, 10);
    if (day !== lastDay) {
      dayStart = bankroll;
      lastDay = day;
    }
    flat += b.won ? b.odds - 1 : -1;
    flatProfit.push(flat);
    const kellyAmount = b.kellyStake * dayStart;
    const ret = b.won ? kellyAmount * (b.odds - 1) : -kellyAmount;
    kellyStaked += kellyAmount;
    bankroll += ret;
    kellyReturns.push({ stake: kellyAmount, ret });
    kellyBankroll.push(bankroll);
  }
  const flatRoi = meanRoi(
    bets.map((b) => (b.won ? b.odds - 1 : -1)),
    options.seed + 100,
    resamples,
  );
  const kellyRoi = bootstrap(
    kellyReturns.length,
    (idx) => {
      let r = 0;
      let s = 0;
      for (let i = 0; i < idx.length; i++) {
        r += kellyReturns[idx[i]].ret;
        s += kellyReturns[idx[i]].stake;
      }
      return s > 0 ? r / s : 0;
    },
    options.seed + 200,
    resamples,
  );
  const openingSources: Record<string, number> = {};
  for (const f of test) openingSources[f.openSource] = (openingSources[f.openSource] ?? 0) + 1;
  const betsByBook: Record<string, number> = {};
  for (const b of bets) betsByBook[b.book] = (betsByBook[b.book] ?? 0) + 1;

  return {
    seasons: { from: options.fromSeason, to: options.toSeason },
    matches: test.length,
    warmup: {
      matches: warmup.length,
      blendWeights: blend.weights,
      usedWeights: w,
      rps: blend.rps,
      marketRps: mean(warmup.map((f) => rps(f.open, f.outcome))),
      seasons: warmupSeasons,
      priceMoveScale: moveScale,
      clv: { ...clvSummary(warmupBets, options.seed + 300, resamples), byConfidence: byConfidence(warmupBets, options.seed + 310, resamples) },
    },
    openingSources,
    books: options.books ?? DEFAULT_BET_BOOKS,
    scores: {
      model: scoreSet(model, outcomes),
      dixonColes: scoreSet(dc, outcomes),
      ratings: scoreSet(
        test.map((f) => blendedProbabilities(f, { dixonColes: 0, ratings: 1 })),
        outcomes,
      ),
      openShin: scoreSet(
        test.map((f) => f.openShin),
        outcomes,
      ),
      open: scoreSet(open, outcomes),
      close: scoreSet(close, outcomes),
    },
    differences: { modelMinusClose: diff(close, 1), modelMinusOpen: diff(open, 11) },
    calibration: { model: calModel, close: calClose, modelMaxGapPoints: maxGap(calModel), closeMaxGapPoints: maxGap(calClose) },
    clv: {
      ...clvSummary(bets, options.seed + 400, resamples),
      byConfidence: byConfidence(bets, options.seed + 410, resamples),
      proportionalMean: mean(bets.map((b) => b.clvProportional)),
      betsByBook,
    },
    roi: {
      flat: { bets: bets.length, staked: bets.length, profit: flat, roi: flatRoi, maxDrawdownUnits: maxDrawdown([0, ...flatProfit]) },
      kelly: {
        bets: bets.length,
        staked: kellyStaked,
        profit: bankroll - 1,
        roi: kellyRoi,
        finalBankroll: bankroll,
        maxDrawdownShare: maxDrawdown([1, ...kellyBankroll], true),
      },
    },
    series: { flatProfit, kellyBankroll },
    bets,
  };
}
