/**
 * Limited-memory BFGS minimiser with a backtracking (Armijo) line search. Small and dependency
 * free; the objective may return Infinity for infeasible points (the line search then shortens
 * the step), which is how Dixon-Coles keeps rho inside the region where tau stays positive.
 */
export interface LbfgsOptions {
  maxIterations?: number;
  /** Stop when the largest absolute gradient component falls below this. */
  gradientTolerance?: number;
  memory?: number;
}

export interface LbfgsResult {
  x: Float64Array;
  value: number;
  iterations: number;
  converged: boolean;
}

/** `evaluate` returns f(x) and writes the gradient into `grad`. */
export type Objective = (x: Float64Array, grad: Float64Array) => number;

export function minimizeLbfgs(evaluate: Objective, start: ArrayLike<number>, options: LbfgsOptions = {}): LbfgsResult {
  const n = start.length;
  const maxIterations = options.maxIterations ?? 500;
  const tol = options.gradientTolerance ?? 1e-6;
  const m = options.memory ?? 8;
  let x = Float64Array.from(start);
  let g = new Float64Array(n);
  let f = evaluate(x, g);
  if (!Number.isFinite(f)) throw new RangeError('L-BFGS start point is infeasible');
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const rhoHist: number[] = [];
  const d = new Float64Array(n);
  const alpha = new Array<number>(m);
  let xNew = new Float64Array(n);
  let gNew = new Float64Array(n);
  for (let iter = 0; iter < maxIterations; iter++) {
    if (maxAbs(g) < tol) return { x, value: f, iterations: iter, converged: true };
    // Two-loop recursion: d = -H g.
    for (let i = 0; i < n; i++) d[i] = -g[i];
    for (let k = S.length - 1; k >= 0; k--) {
      alpha[k] = rhoHist[k] * dot(S[k], d);
      axpy(-alpha[k], Y[k], d);
    }
    if (S.length > 0) {
      const last = S.length - 1;
      const gamma = dot(S[last], Y[last]) / dot(Y[last], Y[last]);
      for (let i = 0; i < n; i++) d[i] *= gamma;
    } else {
      // First step: a unit-length move, so a steep start cannot jump far into infeasibility.
      const norm = Math.sqrt(dot(d, d));
      if (norm > 1) for (let i = 0; i < n; i++) d[i] /= norm;
    }
    for (let k = 0; k < S.length; k++) {
      const beta = rhoHist[k] * dot(Y[k], d);
      axpy(alpha[k] - beta, S[k], d);
    }
    let slope = dot(g, d);
    if (!(slope < 0)) {
      // Not a descent direction (curvature information went stale): restart from steepest descent.
      S.length = Y.length = rhoHist.length = 0;
      for (let i = 0; i < n; i++) d[i] = -g[i];
      slope = dot(g, d);
    }
    let step = 1;
    let fNew = Infinity;
    for (let tries = 0; tries < 60; tries++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i] + step * d[i];
      fNew = evaluate(xNew, gNew);
      if (Number.isFinite(fNew) && fNew <= f + 1e-4 * step * slope) break;
      step *= 0.5;
    }
    if (!Number.isFinite(fNew) || fNew > f) return { x, value: f, iterations: iter, converged: maxAbs(g) < tol * 100 };
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      s[i] = xNew[i] - x[i];
      y[i] = gNew[i] - g[i];
    }
    const sy = dot(s, y);
    if (sy > 1e-12) {
      if (S.length === m) {
        S.shift();
        Y.shift();
        rhoHist.shift();
      }
      S.push(s);
      Y.push(y);
      rhoHist.push(1 / sy);
    }
    const relChange = Math.abs(f - fNew) / Math.max(1, Math.abs(f));
    [x, xNew] = [xNew, x];
    [g, gNew] = [gNew, g];
    f = fNew;
    if (relChange < 1e-13) return { x, value: f, iterations: iter + 1, converged: true };
  }
  return { x, value: f, iterations: maxIterations, converged: maxAbs(g) < tol };
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function axpy(a: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < x.length; i++) y[i] += a * x[i];
}

function maxAbs(a: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}
