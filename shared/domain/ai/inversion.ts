import { marketType } from '../markets/catalog';
import type { SportDefinition } from '../sports/definition';
import { priceFromSummary, summarizeGrid } from './gridPricing';
import type { GridOptions } from './sportParams';

/** A de-vigged probability of one full-time score outcome that the grid should reproduce. */
export interface PriceTarget {
  sysname: string;
  code: string;
  line: number | null;
  probability: number;
}

export interface Inversion {
  x: number[];
  /** Root mean square of grid minus target probabilities. */
  residual: number;
  iterations: number;
}

function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[piv][c])) piv = r;
    if (!(Math.abs(m[piv][c]) > 1e-300)) return null;
    [m[c], m[piv]] = [m[piv], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/**
 * The x whose grid best reproduces the targets (least squares, Levenberg-Marquardt with a
 * numeric Jacobian, x kept inside the model's bounds). Null without targets.
 */
export function invertMarket(sport: SportDefinition, targets: readonly PriceTarget[], options: GridOptions = {}, start?: readonly number[]): Inversion | null {
  const usable = targets.filter((t) => {
    const type = marketType(t.sysname);
    return type && type.sportId === sport.id && type.stat === 'score' && type.period === 'FT' && t.probability > 0 && t.probability < 1;
  });
  if (usable.length === 0) return null;
  const model = sport.model;
  const clamp = (x: number[]) => x.map((v, i) => Math.min(model.upper[i], Math.max(model.lower[i], v)));
  const residuals = (x: number[]) => {
    const s = summarizeGrid(model.grid(x, options));
    return usable.map((t) => priceFromSummary(s, t.sysname, t.code, t.line).probability - t.probability);
  };
  const sq = (r: number[]) => r.reduce((s, v) => s + v * v, 0);
  let x = clamp([...(start ?? model.initial)]);
  let r = residuals(x);
  let cost = sq(r);
  let damping = 1e-3;
  let iter = 0;
  const n = x.length;
  for (; iter < 60 && cost > 1e-18; iter++) {
    const J = x.map((_, k) => {
      const h = 1e-5 * Math.max(1, Math.abs(x[k]));
      const xp = [...x];
      xp[k] += h;
      return residuals(xp).map((v, i) => (v - r[i]) / h);
    });
    const jtj = J.map((a) => J.map((b) => a.reduce((s, v, i) => s + v * b[i], 0)));
    const jtr = J.map((a) => -a.reduce((s, v, i) => s + v * r[i], 0));
    let improved = false;
    for (let tries = 0; tries < 12; tries++) {
      const m = jtj.map((row, i) => row.map((v, j) => (i === j ? v * (1 + damping) + 1e-12 : v)));
      const dx = solve(m, jtr);
      if (!dx) {
        damping *= 10;
        continue;
      }
      const xn = clamp(x.map((v, i) => v + dx[i]));
      const rn = residuals(xn);
      const cn = sq(rn);
      if (cn < cost) {
        const gain = (cost - cn) / Math.max(cost, 1e-300);
        x = xn;
        r = rn;
        cost = cn;
        damping = Math.max(1e-9, damping / 10);
        improved = gain > 1e-10;
        break;
      }
      damping *= 10;
    }
    if (!improved) break;
  }
  return { x: x.slice(0, n), residual: Math.sqrt(cost / r.length), iterations: iter };
}
