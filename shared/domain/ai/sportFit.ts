import { fitDixonColes, type DcParams } from './dixonColes';
import { fitNormalRatings, fitSetRatings, type NormalRatings, type RatedGame, type SetRatings } from './ratings';
import { rps } from './metrics';
import type { GridOptions } from './sportParams';
import type { CountModel } from './pricing';
import { sportDefinition } from '../sports/registry';

/**
 * The periodic refit of one sport (the `refit` job): team ratings from completed games, stored as
 * plain JSON, and the view they give of one fixture in the sport's parameter space
 * (sportParams.ts). Pure: the job reads the games and writes the result.
 */
export type { SportFamily } from '../sports/definition';

export interface CompletedGame extends RatedGame {
  homeCorners?: number | null;
  awayCorners?: number | null;
  homeCards?: number | null;
  awayCards?: number | null;
}

/** A count model as stored (JSON has no Infinity: a null dispersion is Poisson). */
export interface StoredCountModel {
  home: number;
  away: number;
  dispersion: number | null;
  games: number;
}

export type SportFitParams =
  | { family: 'goals'; dc: DcParams; attackSE: number[]; defenceSE: number[]; corners: StoredCountModel | null; cards: StoredCountModel | null }
  | ({ family: 'normal' } & NormalRatings)
  | ({ family: 'sets' } & SetRatings);

export interface SportFit {
  sportId: number;
  params: SportFitParams;
  gamesUsed: number;
}

/** Days of history a refit reads: two seasons of most leagues. */
export const FIT_WINDOW_DAYS = 730;
/** Fewer completed games than this and the sport has no model (market only). */
export const MIN_FIT_GAMES = 30;

/** League-average counts per side with a method-of-moments dispersion. */
export function fitCountModel(pairs: readonly { home: number; away: number }[]): StoredCountModel | null {
  if (pairs.length < MIN_FIT_GAMES) return null;
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const h = pairs.map((p) => p.home);
  const a = pairs.map((p) => p.away);
  const mh = mean(h);
  const ma = mean(a);
  if (!(mh > 0 && ma > 0)) return null;
  const excess = (v: number[], m: number) => v.reduce((s, x) => s + (x - m) ** 2, 0) / (v.length - 1) - m;
  // Var = m + m^2 / r, pooled over both sides.
  const ex = (excess(h, mh) + excess(a, ma)) / 2;
  const m2 = (mh * mh + ma * ma) / 2;
  return { home: mh, away: ma, dispersion: ex > 0.01 ? m2 / ex : null, games: pairs.length };
}

export function asCountModel(m: StoredCountModel | null | undefined): CountModel | undefined {
  return m ? { home: m.home, away: m.away, dispersion: m.dispersion ?? Infinity } : undefined;
}

export function fitSport(sportId: number, games: readonly CompletedGame[], now: number): SportFit | null {
  const { family, counts: fitsCounts } = sportDefinition(sportId).fit;
  const recent = games.filter((g) => g.day <= now && now - g.day <= FIT_WINDOW_DAYS);
  if (recent.length < MIN_FIT_GAMES) return null;
  if (family === 'goals') {
    const fit = fitDixonColes(
      recent.map((g) => ({ home: g.home, away: g.away, homeGoals: g.homeScore, awayGoals: g.awayScore, day: g.day })),
      { now, maxAgeDays: FIT_WINDOW_DAYS },
    );
    const counts = (pick: (g: CompletedGame) => [number | null | undefined, number | null | undefined]) =>
      fitCountModel(
        recent.flatMap((g) => {
          const [h, a] = pick(g);
          return typeof h === 'number' && typeof a === 'number' ? [{ home: h, away: a }] : [];
        }),
      );
    return {
      sportId,
      gamesUsed: fit.matchesUsed,
      params: {
        family,
        dc: fit.params,
        attackSE: fit.attackSE,
        defenceSE: fit.defenceSE,
        corners: fitsCounts ? counts((g) => [g.homeCorners, g.awayCorners]) : null,
        cards: fitsCounts ? counts((g) => [g.homeCards, g.awayCards]) : null,
      },
    };
  }
  if (family === 'normal') {
    const r = fitNormalRatings(recent, { now, maxAgeDays: FIT_WINDOW_DAYS });
    return { sportId, gamesUsed: r.gamesUsed, params: { family, ...r } };
  }
  const r = fitSetRatings(recent, { now, maxAgeDays: FIT_WINDOW_DAYS });
  return { sportId, gamesUsed: r.gamesUsed, params: { family, ...r } };
}

/** The fitted model's view of one fixture: parameters, their standard errors, grid options. */
export interface ModelView {
  x: number[];
  se: number[];
  /** Both teams were in the fit (an unseen team is rated average). */
  known: boolean;
  options: GridOptions;
}

export function modelView(params: SportFitParams, home: string, away: string): ModelView {
  if (params.family === 'goals') {
    const p = params.dc;
    const h = p.teams.indexOf(home);
    const a = p.teams.indexOf(away);
    const at = (arr: number[], i: number) => (i < 0 ? 0 : arr[i]);
    const unseen = 1 / Math.sqrt(2);
    return {
      x: [p.intercept + p.homeAdvantage + at(p.attack, h) + at(p.defence, a), p.intercept + at(p.attack, a) + at(p.defence, h)],
      se: [Math.hypot(h < 0 ? unseen : params.attackSE[h], a < 0 ? unseen : params.defenceSE[a]), Math.hypot(a < 0 ? unseen : params.attackSE[a], h < 0 ? unseen : params.defenceSE[h])],
      known: h >= 0 && a >= 0,
      options: { rho: p.rho },
    };
  }
  const h = params.teams.indexOf(home);
  const a = params.teams.indexOf(away);
  if (params.family === 'normal') {
    const s = (i: number) => (i < 0 ? 0 : params.strength[i]);
    const q = (i: number) => (i < 0 ? 0 : params.pace[i]);
    const sse = (i: number) => (i < 0 ? params.marginSD : params.strengthSE[i]);
    const pse = (i: number) => (i < 0 ? params.totalSD : params.paceSE[i]);
    return {
      x: [params.homeAdvantage + s(h) - s(a), params.meanTotal + q(h) + q(a)],
      se: [Math.hypot(sse(h), sse(a)), Math.hypot(pse(h), pse(a))],
      known: h >= 0 && a >= 0,
      options: { marginSD: params.marginSD, totalSD: params.totalSD },
    };
  }
  const r = (i: number) => (i < 0 ? 0 : params.rating[i]);
  const rse = (i: number) => (i < 0 ? 1 : params.ratingSE[i]);
  return { x: [params.homeAdvantage + r(h) - r(a)], se: [Math.hypot(rse(h), rse(a))], known: h >= 0 && a >= 0, options: {} };
}

/** One completed event's pre-kickoff main-market forecasts, market and model, and its outcome. */
export interface BlendRow {
  market: number[];
  model: number[];
  /** Index of what happened in the same outcome order (home, [draw,] away). */
  outcome: number;
}

/** Completed events needed before the blend weight is fitted; fewer and the market stands alone. */
export const MIN_BLEND_EVENTS = 200;

/**
 * Weight of the model in the linear pool (1 - w) x market + w x model, in steps of 0.05,
 * minimising mean ranked probability score on completed events' pre-kickoff forecasts.
 * Each model forecast was made before its event by a fit of earlier results: out of sample.
 */
export function fitPoolWeight(rows: readonly BlendRow[], minRows = MIN_BLEND_EVENTS): { weight: number; rows: number; rps: number; marketRps: number } {
  const score = (w: number) =>
    rows.reduce((s, r) => {
      const p = r.market.map((m, k) => (1 - w) * m + w * r.model[k]);
      // RPS of a two-way forecast is the Brier score of either side over two.
      const triple: [number, number, number] = p.length === 3 ? [p[0], p[1], p[2]] : [p[0], 0, p[1]];
      const outcome = p.length === 3 ? r.outcome : r.outcome === 0 ? 0 : 2;
      return s + rps(triple, outcome);
    }, 0) / Math.max(rows.length, 1);
  const marketRps = score(0);
  if (rows.length < minRows) return { weight: 0, rows: rows.length, rps: marketRps, marketRps };
  let best = { weight: 0, rps: marketRps };
  for (let i = 1; i <= 20; i++) {
    const w = i / 20;
    const v = score(w);
    if (v < best.rps - 1e-12) best = { weight: w, rps: v };
  }
  return { ...best, rows: rows.length, marketRps };
}
