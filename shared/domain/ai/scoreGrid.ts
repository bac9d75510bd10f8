/**
 * A joint distribution of (home, away) final scores in the sport's unit (goals, points, sets,
 * runs). Every model in shared/domain/ai ends in one of these, so one pricing routine covers every
 * catalog market of every sport.
 */
export interface ScoreGrid {
  /** Home score of row 0 and away score of column 0 (basketball grids start far above zero). */
  homeMin: number;
  awayMin: number;
  /** p[i][j] = P(home = homeMin + i, away = awayMin + j); sums to one. */
  p: number[][];
}

export interface ResultProbabilities {
  home: number;
  draw: number;
  away: number;
}

export function gridFromMatrix(p: number[][], homeMin = 0, awayMin = 0): ScoreGrid {
  return normalizeGrid({ homeMin, awayMin, p });
}

export function normalizeGrid(grid: ScoreGrid): ScoreGrid {
  let total = 0;
  for (const row of grid.p) for (const x of row) total += x;
  if (!(total > 0)) throw new RangeError('score grid has no mass');
  return { homeMin: grid.homeMin, awayMin: grid.awayMin, p: grid.p.map((row) => row.map((x) => x / total)) };
}

/** Independent home and away score pmfs (pmf[k] = P(score = min + k)) joined into a grid. */
export function independentGrid(homePmf: number[], awayPmf: number[], homeMin = 0, awayMin = 0): ScoreGrid {
  return normalizeGrid({ homeMin, awayMin, p: homePmf.map((ph) => awayPmf.map((pa) => ph * pa)) });
}

export function forEachCell(grid: ScoreGrid, fn: (home: number, away: number, p: number) => void): void {
  for (let i = 0; i < grid.p.length; i++) {
    const row = grid.p[i];
    for (let j = 0; j < row.length; j++) if (row[j] > 0) fn(grid.homeMin + i, grid.awayMin + j, row[j]);
  }
}

export function resultProbabilities(grid: ScoreGrid): ResultProbabilities {
  let home = 0;
  let draw = 0;
  let away = 0;
  forEachCell(grid, (h, a, p) => {
    if (h > a) home += p;
    else if (h === a) draw += p;
    else away += p;
  });
  return { home, draw, away };
}

export function expectedScore(grid: ScoreGrid): { home: number; away: number } {
  let home = 0;
  let away = 0;
  forEachCell(grid, (h, a, p) => {
    home += h * p;
    away += a * p;
  });
  return { home, away };
}

/** P(home + away > line) for a half line; integer lines leave the push mass out. */
export function overProbability(grid: ScoreGrid, line: number): number {
  let over = 0;
  forEachCell(grid, (h, a, p) => {
    if (h + a > line) over += p;
  });
  return over;
}

export function mostLikelyScores(grid: ScoreGrid, count: number): { home: number; away: number; probability: number }[] {
  const cells: { home: number; away: number; probability: number }[] = [];
  forEachCell(grid, (home, away, probability) => cells.push({ home, away, probability }));
  return cells.sort((x, y) => y.probability - x.probability || x.home - y.home || x.away - y.away).slice(0, count);
}
