import { devigProportional, devigShin } from './devig';
import { dcLambdas, dcScoreGrid, fitDixonColes, lambdasFromMarket, DEFAULT_RIDGE, DEFAULT_XI, type DcMatch, type DcParams } from './dixonColes';
import { bootstrap, brier, calibrationTable, logLoss, maxDrawdown, mean, pairedDifference, rps, standardError, type CalibrationBin, type Interval, type Triple } from './metrics';
import { resultProbabilities } from './scoreGrid';
import { confidenceLevel, edgePercentage, kellyFraction, probabilityStandardError, type Confidence } from './staking';

/**
 * Walk-forward backtest of the soccer 1X2 model on football-data.co.uk rows. Pure: the caller
 * reads the files. The rule that keeps it honest: a match's prediction may use results of
 * matches on EARLIER days and that match's own opening prices; closing prices are only the
 * benchmark, and the blend weight is fitted on the warm-up seasons only.
 */
export interface BacktestMatch {
  season: number;
  kickoff: Date;
  homeTeam: string;
  awayTeam: string;
  fthg: number | null;
  ftag: number | null;
  /** Every numeric column of the row (football-data names: PSH, PSCH, B365H, ...). */
  odds: Record<string, number>;
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
  bootstrapResamples?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Opening 1X2 sources in order of preference: Pinnacle, then Bet365, then market averages. */
export const OPENING_SOURCES = ['PS', 'B365', 'Avg', 'BbAv', 'WH', 'IW', 'LB', 'VC', 'BW', 'GB', 'SB'] as const;
export const CLOSING_SOURCE = 'PSC';

export function oddsTriple(odds: Record<string, number>, prefix: string): [number, number, number] | null {
  const t = ['H', 'D', 'A'].map((s) => odds[prefix + s]);
  return t.every((o) => Number.isFinite(o) && o > 1) ? (t as [number, number, number]) : null;
}

export function openingOdds(odds: Record<string, number>): { source: string; odds: [number, number, number] } | null {
  for (const source of OPENING_SOURCES) {
    const t = oddsTriple(odds, source);
    if (t) return { source, odds: t };
  }
  return null;
}

/** What the walk-forward knows about one match before kickoff, plus its result for scoring. */
export interface MatchForecast {
  index: number;
  season: number;
  kickoff: Date;
  homeTeam: string;
  awayTeam: string;
  outcome: number;
  openSource: string;
  openOdds: [number, number, number];
  /** Opening de-vigged proportionally: the benchmark, as the data README measures it. */
  open: Triple;
  /** Opening de-vigged by Shin: the model's market input. */
  openShin: Triple;
  close: Triple | null;
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

/**
 * Pass 1: for every match with an opening price and a result, the market's and the Dixon-Coles
 * expected goals, refitting once per match day on the results of earlier days only.
 */
export function walkForward(matches: readonly BacktestMatch[], options: Pick<BacktestOptions, 'toSeason' | 'xi' | 'ridge' | 'windowDays' | 'ratingsXi' | 'onProgress'>): MatchForecast[] {
  const xi = options.xi ?? DEFAULT_XI;
  const ratingsXi = options.ratingsXi ?? 0.01;
  const ridge = options.ridge ?? DEFAULT_RIDGE;
  const windowDays = options.windowDays ?? 1100;
  const sorted = matches
    .map((m, index) => ({ m, index, day: Math.floor(m.kickoff.getTime() / 86_400_000) }))
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
  days.forEach((day, dayIndex) => {
    options.onProgress?.(dayIndex, days.length);
    const today: typeof sorted = [];
    while (cursor < sorted.length && sorted[cursor].day === day) today.push(sorted[cursor++]);
    const toPredict = today.filter((x) => x.m.season > firstSeason && x.m.fthg !== null && x.m.ftag !== null && openingOdds(x.m.odds));
    if (toPredict.length > 0 && history.length >= 200 && priceHistory.length >= 200) {
      const fit = fitDixonColes(history, { now: day, xi, ridge, maxAgeDays: windowDays, init: params });
      params = fit.params;
      const ratings = fitDixonColes(priceHistory, { now: day, xi: ratingsXi, ridge, maxAgeDays: 500, init: ratingParams ?? { ...fit.params, rho: 0 } });
      ratingParams = ratings.params;
      const seOf = (team: string, kind: 'attack' | 'defence') => {
        const i = fit.params.teams.indexOf(team);
        return i < 0 ? 1 / Math.sqrt(ridge) : kind === 'attack' ? fit.attackSE[i] : fit.defenceSE[i];
      };
      for (const { m, index } of toPredict) {
        const open = openingOdds(m.odds)!;
        const shin = devigShin(open.odds).probabilities as unknown as Triple;
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
          outcome: outcomeOf(m.fthg!, m.ftag!),
          openSource: open.source,
          openOdds: open.odds,
          open: devigProportional(open.odds).probabilities as unknown as Triple,
          openShin: shin,
          close: close ? (devigProportional(close).probabilities as unknown as Triple) : null,
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
      const priced = oddsTriple(m.odds, CLOSING_SOURCE) ?? openingOdds(m.odds)?.odds;
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
  return [0, 1].map((k) =>
    Math.exp(wm * Math.log(f.lambdaMarket[k]) + w.dixonColes * Math.log(f.lambdaDc[k]) + w.ratings * Math.log(f.lambdaRatings[k])),
  ) as [number, number];
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
  return [0, 1, 2].map((k) => {
    const dh = (hp[k] - hm[k]) / (2 * eps);
    const da = (ap[k] - am[k]) / (2 * eps);
    return w.dixonColes * Math.hypot(dh * f.logLambdaSE[0], da * f.logLambdaSE[1]);
  }) as unknown as Triple;
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
  match: string;
  outcome: 'H' | 'D' | 'A';
  odds: number;
  probability: number;
  edgePercentage: number;
  kellyStake: number;
  confidence: Confidence;
  clv: number;
  won: boolean;
}

export interface ClvSummary {
  bets: number;
  mean: number;
  standardError: number;
  beatCloseShare: number;
}

export interface BacktestReport {
  seasons: { from: number; to: number };
  matches: number;
  /** `blendWeights` fitted on the warm-up; `usedWeights` differ only under blendOverride. */
  warmup: { matches: number; blendWeights: BlendWeights; usedWeights: BlendWeights; rps: number; marketRps: number; seasons: number[] };
  openingSources: Record<string, number>;
  scores: { model: ScoreSet; dixonColes: ScoreSet; ratings: ScoreSet; openShin: ScoreSet; open: ScoreSet; close: ScoreSet };
  differences: {
    modelMinusClose: Record<keyof ScoreSet, Interval>;
    modelMinusOpen: Record<keyof ScoreSet, Interval>;
  };
  calibration: { model: CalibrationBin[]; close: CalibrationBin[]; modelMaxGapPoints: number; closeMaxGapPoints: number };
  clv: ClvSummary & { byConfidence: Record<Confidence, ClvSummary> };
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

function clvSummary(bets: readonly BetRecord[]): ClvSummary {
  return {
    bets: bets.length,
    mean: mean(bets.map((b) => b.clv)),
    standardError: standardError(bets.map((b) => b.clv)),
    beatCloseShare: bets.length ? bets.filter((b) => b.clv > 0).length / bets.length : NaN,
  };
}

export function runBacktest(matches: readonly BacktestMatch[], options: BacktestOptions): BacktestReport {
  const forecasts = walkForward(matches, options);
  const predictedSeasons = [...new Set(forecasts.map((f) => f.season))].sort((a, b) => a - b);
  // The first predicted season is the Dixon-Coles burn-in: too little history to judge the blend.
  const warmupSeasons = predictedSeasons.filter((s) => s < options.fromSeason && s > predictedSeasons[0]);
  const warmup = forecasts.filter((f) => warmupSeasons.includes(f.season));
  const blend = warmup.length > 0 ? fitBlendWeight(warmup) : { weights: MARKET_ONLY, rps: NaN };
  const w = options.blendOverride ?? blend.weights;
  const test = forecasts.filter((f) => f.season >= options.fromSeason && f.season <= options.toSeason && f.close !== null);
  if (test.length === 0) throw new RangeError(`no match between ${options.fromSeason} and ${options.toSeason} has opening and closing prices`);
  const outcomes = test.map((f) => f.outcome);
  const model = test.map((f) => blendedProbabilities(f, w));
  const dc = test.map((f) => triple(resultProbabilities(dcScoreGrid(f.lambdaDc[0], f.lambdaDc[1], f.rho))));
  const open = test.map((f) => f.open);
  const close = test.map((f) => f.close!);
  const perMatch = (preds: readonly Triple[], rule: (p: Triple, o: number) => number) => preds.map((p, i) => rule(p, outcomes[i]));
  const diff = (other: readonly Triple[], salt: number) => ({
    rps: pairedDifference(perMatch(model, rps), perMatch(other, rps), options.seed + salt, options.bootstrapResamples),
    logLoss: pairedDifference(perMatch(model, logLoss), perMatch(other, logLoss), options.seed + salt + 1, options.bootstrapResamples),
    brier: pairedDifference(perMatch(model, brier), perMatch(other, brier), options.seed + salt + 2, options.bootstrapResamples),
  });
  const pairs = (preds: readonly Triple[]) => preds.flatMap((p, i) => [0, 1, 2].map((k) => ({ p: p[k], hit: outcomes[i] === k })));
  const calModel = calibrationTable(pairs(model));
  const calClose = calibrationTable(pairs(close));
  const maxGap = (bins: CalibrationBin[]) => Math.max(...bins.map((b) => 100 * Math.abs(b.predicted - b.observed)));

  // Bets at opening prices where the model's edge clears the threshold; the same day's bets
  // are sized from the bankroll at the start of that day (they run simultaneously).
  const bets: BetRecord[] = [];
  const flatProfit: number[] = [];
  const kellyBankroll: number[] = [];
  let flat = 0;
  let bankroll = 1;
  let kellyStaked = 0;
  let dayStart = bankroll;
  let lastDay = '';
  const kellyReturns: { stake: number; ret: number }[] = [];
  test.forEach((f, i) => {
    const day = f.kickoff.toISOString().slice(0, 10);
    if (day !== lastDay) {
      dayStart = bankroll;
      lastDay = day;
    }
    const p = model[i];
    const se = blendedStandardErrors(f, w);
    for (let k = 0; k < 3; k++) {
      const odds = f.openOdds[k];
      const edge = edgePercentage(p[k], odds);
      if (edge < options.minEdge) continue;
      const stake = kellyFraction(p[k], odds);
      const won = f.outcome === k;
      const confidence = confidenceLevel({ edgePercentage: edge, probability: p[k], odds, standardError: probabilityStandardError(se[k], p[k], f.openShin[k]) });
      const clv = odds * close[i][k] - 1;
      bets.push({
        kickoff: f.kickoff.toISOString(),
        match: `${f.homeTeam} v ${f.awayTeam}`,
        outcome: (['H', 'D', 'A'] as const)[k],
        odds,
        probability: p[k],
        edgePercentage: edge,
        kellyStake: stake,
        confidence,
        clv,
        won,
      });
      flat += won ? odds - 1 : -1;
      flatProfit.push(flat);
      const kellyAmount = stake * dayStart;
      kellyStaked += kellyAmount;
      bankroll += won ? kellyAmount * (odds - 1) : -kellyAmount;
      kellyReturns.push({ stake: kellyAmount, ret: won ? kellyAmount * (odds - 1) : -kellyAmount });
      kellyBankroll.push(bankroll);
    }
  });
  const flatRets = bets.map((b) => (b.won ? b.odds - 1 : -1));
  const flatRoi = bootstrap(flatRets.length, (idx) => {
    let s = 0;
    for (let i = 0; i < idx.length; i++) s += flatRets[idx[i]];
    return s / idx.length;
  }, options.seed + 100, options.bootstrapResamples);
  const kellyRoi = bootstrap(kellyReturns.length, (idx) => {
    let r = 0;
    let s = 0;
    for (let i = 0; i < idx.length; i++) {
      r += kellyReturns[idx[i]].ret;
      s += kellyReturns[idx[i]].stake;
    }
    return s > 0 ? r / s : 0;
  }, options.seed + 200, options.bootstrapResamples);
  const byConfidence = Object.fromEntries((['High', 'Medium', 'Low'] as const).map((c) => [c, clvSummary(bets.filter((b) => b.confidence === c))])) as Record<Confidence, ClvSummary>;
  const openingSources: Record<string, number> = {};
  for (const f of test) openingSources[f.openSource] = (openingSources[f.openSource] ?? 0) + 1;

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
    },
    openingSources,
    scores: {
      model: scoreSet(model, outcomes),
      dixonColes: scoreSet(dc, outcomes),
      ratings: scoreSet(test.map((f) => blendedProbabilities(f, { dixonColes: 0, ratings: 1 })), outcomes),
      openShin: scoreSet(test.map((f) => f.openShin), outcomes),
      open: scoreSet(open, outcomes),
      close: scoreSet(close, outcomes),
    },
    differences: { modelMinusClose: diff(close, 1), modelMinusOpen: diff(open, 11) },
    calibration: { model: calModel, close: calClose, modelMaxGapPoints: maxGap(calModel), closeMaxGapPoints: maxGap(calClose) },
    clv: { ...clvSummary(bets), byConfidence },
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
