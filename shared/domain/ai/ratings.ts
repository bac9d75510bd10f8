import { minimizeLbfgs } from './lbfgs';
import { valueOf } from '../records';

/**
 * Team ratings for the sports whose score is not a goal count: margin and total ratings
 * (basketball, American football) and set ratings (tennis, volleyball). Soccer, baseball, ice
 * hockey and handball use the Dixon-Coles goal model (dixonColes.ts). All decay old games
 * exponentially and shrink every team toward average (ridge), so a team with few games is rated
 * near the mean and an unseen team exactly at it.
 */
export interface RatedGame {
  home: string;
  away: string;
  homeScore: number;
  awayScore: number;
  /** Days on any fixed axis; only differences to `now` matter. */
  day: number;
}

export interface RatingOptions {
  now: number;
  /** Decay per day; 0.005 halves a game's weight in about 140 days. */
  xi?: number;
  /** Shrinkage toward average, in games' worth of an average result. */
  ridge?: number;
  maxAgeDays?: number;
}

export const RATINGS_XI = 0.005;
export const RATINGS_RIDGE = 5;

function prepared(games: readonly RatedGame[], o: RatingOptions) {
  const xi = o.xi ?? RATINGS_XI;
  const kept = games.filter((g) => g.day <= o.now && o.now - g.day <= (o.maxAgeDays ?? Infinity));
  const teams = [...new Set(kept.flatMap((g) => [g.home, g.away]))].sort();
  const index = new Map(teams.map((t, i) => [t, i]));
  return {
    teams,
    rows: kept.map((g) => ({ h: valueOf(index, g.home), a: valueOf(index, g.away), hs: g.homeScore, as: g.awayScore, w: Math.exp(-xi * (o.now - g.day)) })),
    ridge: o.ridge ?? RATINGS_RIDGE,
  };
}

export interface NormalRatings {
  teams: string[];
  homeAdvantage: number;
  /** Margin rating: expected margin = homeAdvantage + strength[home] - strength[away]. */
  strength: number[];
  /** Total rating: expected total = meanTotal + pace[home] + pace[away]. */
  meanTotal: number;
  pace: number[];
  marginSD: number;
  totalSD: number;
  strengthSE: number[];
  paceSE: number[];
  gamesUsed: number;
}

/**
 * Weighted ridge least squares of margins and totals (two independent quadratic problems,
 * solved by L-BFGS); the residual standard deviations become the grid's marginSD and totalSD.
 */
export function fitNormalRatings(games: readonly RatedGame[], o: RatingOptions): NormalRatings {
  const { teams, rows, ridge } = prepared(games, o);
  if (rows.length === 0) throw new RangeError('ratings need at least one game');
  const n = teams.length;
  const fit = (target: (r: (typeof rows)[number]) => number, sign: 1 | -1) => {
    // x = [intercept, team effects...]; prediction = x0 + e[h] + sign * e[a].
    const meanTarget = rows.reduce((s, r) => s + r.w * target(r), 0) / rows.reduce((s, r) => s + r.w, 0);
    // With squared errors per game, a penalty of `ridge` x effect^2 shrinks a team seen in n
    // games by n / (n + ridge): exactly `ridge` games of an average result.
    const lambda = ridge;
    const res = minimizeLbfgs(
      (x, g) => {
        g.fill(0);
        let f = 0;
        for (const r of rows) {
          const e = x[0] + x[1 + r.h] + sign * x[1 + r.a] - target(r);
          f += r.w * e * e;
          const d = 2 * r.w * e;
          g[0] += d;
          g[1 + r.h] += d;
          g[1 + r.a] += sign * d;
        }
        for (let i = 0; i < n; i++) {
          f += lambda * x[1 + i] * x[1 + i];
          g[1 + i] += 2 * lambda * x[1 + i];
        }
        return f;
      },
      [meanTarget, ...new Array<number>(n).fill(0)],
      { maxIterations: 500, gradientTolerance: 1e-8 },
    );
    const x = Array.from(res.x);
    let wsum = 0;
    let ss = 0;
    const exposure = new Array<number>(n).fill(0);
    for (const r of rows) {
      const e = x[0] + x[1 + r.h] + sign * x[1 + r.a] - target(r);
      ss += r.w * e * e;
      wsum += r.w;
      exposure[r.h] += r.w;
      exposure[r.a] += r.w;
    }
    const sd = Math.sqrt(ss / Math.max(wsum, 1e-9));
    return { x, sd, se: exposure.map((e) => sd / Math.sqrt(e + lambda)) };
  };
  const margin = fit((r) => r.hs - r.as, -1);
  const total = fit((r) => r.hs + r.as, 1);
  return {
    teams,
    homeAdvantage: margin.x[0],
    strength: margin.x.slice(1),
    meanTotal: total.x[0],
    pace: total.x.slice(1),
    marginSD: Math.max(1, margin.sd),
    totalSD: Math.max(1, total.sd),
    strengthSE: margin.se,
    paceSE: total.se,
    gamesUsed: rows.length,
  };
}

export interface SetRatings {
  teams: string[];
  homeAdvantage: number;
  /** P(home wins a set) = logistic(homeAdvantage + rating[home] - rating[away]). */
  rating: number[];
  ratingSE: number[];
  gamesUsed: number;
}

const logistic = (v: number) => 1 / (1 + Math.exp(-v));

/** Bradley-Terry on sets: every set is a trial won by one side (the score counts sets). */
export function fitSetRatings(games: readonly RatedGame[], o: RatingOptions): SetRatings {
  const { teams, rows, ridge } = prepared(games, o);
  if (rows.length === 0) throw new RangeError('ratings need at least one game');
  const n = teams.length;
  // A set-win logit of 1 is a large gap; the ridge is in sets' worth of information (p(1-p) = 1/4).
  const lambda = ridge / 4;
  const res = minimizeLbfgs(
    (x, g) => {
      g.fill(0);
      let f = 0;
      for (const r of rows) {
        const eta = x[0] + x[1 + r.h] - x[1 + r.a];
        const p = logistic(eta);
        f -= r.w * (r.hs * Math.log(Math.max(p, 1e-300)) + r.as * Math.log(Math.max(1 - p, 1e-300)));
        const d = -r.w * (r.hs * (1 - p) - r.as * p);
        g[0] += d;
        g[1 + r.h] += d;
        g[1 + r.a] -= d;
      }
      for (let i = 0; i < n; i++) {
        f += 0.5 * lambda * x[1 + i] * x[1 + i];
        g[1 + i] += lambda * x[1 + i];
      }
      return f;
    },
    new Array<number>(n + 1).fill(0),
    { maxIterations: 500, gradientTolerance: 1e-8 },
  );
  const x = Array.from(res.x);
  const info = new Array<number>(n).fill(lambda);
  for (const r of rows) {
    const p = logistic(x[0] + x[1 + r.h] - x[1 + r.a]);
    const v = r.w * (r.hs + r.as) * p * (1 - p);
    info[r.h] += v;
    info[r.a] += v;
  }
  return { teams, homeAdvantage: x[0], rating: x.slice(1), ratingSE: info.map((v) => 1 / Math.sqrt(v)), gamesUsed: rows.length };
}
