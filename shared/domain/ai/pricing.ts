import { marketType, OUTCOME_CODES, type MarketKind, type MarketType } from '../markets/catalog';
import { negBinomialPmf } from './countDistributions';
export { FIRST_HALF_GOAL_SHARE, firstHalfGrid } from './sportModels';
import { forEachCell, independentGrid, type ScoreGrid } from './scoreGrid';

/**
 * Prices any catalog market (type + line + outcome code) from score distributions, with the
 * catalog's settlement conventions: handicap lines apply to the home side (code '2' is the away
 * side at -line), quarter lines split the stake over the two neighbouring half/whole lines.
 */
export interface OutcomeDistribution {
  win: number;
  halfWin: number;
  push: number;
  halfLoss: number;
  loss: number;
}

/** Mean counts per side; dispersion r makes them negative binomial (variance m + m^2 / r). */
export interface CountModel {
  home: number;
  away: number;
  dispersion?: number;
}

export interface PricingInputs {
  sportId: number;
  /** Full-time score distribution (soccer: Dixon-Coles grid; other sports: their model). */
  fullTime: ScoreGrid;
  /** First-half score distribution; required only for '1H' markets. */
  firstHalf?: ScoreGrid;
  corners?: CountModel;
  /** Yellow plus red cards per side, as the catalog counts them. */
  cards?: CountModel;
}

export interface PricedOutcome {
  sysname: string;
  code: string;
  line: number | null;
  distribution: OutcomeDistribution;
  /**
   * The win probability that makes a plain bet equivalent: win + halfWin/2 over the stake
   * actually at risk, so fair odds = 1 / probability for split and push-able lines too.
   */
  probability: number;
  fairOdds: number;
}

export function countGrid(model: CountModel): ScoreGrid {
  const r = model.dispersion ?? Infinity;
  return independentGrid(negBinomialPmf(model.home, r), negBinomialPmf(model.away, r));
}

const CODES = OUTCOME_CODES;

/** Stake-weighted return units per settled state: win, push, loss of one half line. */
type Settled = 'win' | 'push' | 'loss';

function settleWhole(kind: MarketKind, code: string, line: number, home: number, away: number): Settled {
  switch (kind) {
    case 'result3':
      return (code === '1' ? home > away : code === 'X' ? home === away : away > home) ? 'win' : 'loss';
    case 'winner2':
      // A tie in a two-way market is void (draw no bet); the sport models never produce one.
      if (home === away) return 'push';
      return (code === '1' ? home > away : away > home) ? 'win' : 'loss';
    case 'btts':
      return (home > 0 && away > 0) === (code === 'Y') ? 'win' : 'loss';
    case 'doubleChance':
      return (code === '1X' ? home >= away : code === '12' ? home !== away : away >= home) ? 'win' : 'loss';
    case 'total': {
      const d = home + away - line;
      if (d === 0) return 'push';
      return (code === 'O' ? d > 0 : d < 0) ? 'win' : 'loss';
    }
    case 'handicap': {
      const d = home + line - away;
      if (d === 0) return 'push';
      return (code === '1' ? d > 0 : d < 0) ? 'win' : 'loss';
    }
  }
}

/** x.25 and x.75 lines are two bets of half the stake on the neighbouring lines. */
export function splitLine(line: number): number[] {
  const quarters = Math.round(line * 4);
  if (Math.abs(line * 4 - quarters) > 1e-9) throw new RangeError(`line ${line} is not a multiple of 0.25`);
  return quarters % 2 !== 0 ? [(quarters - 1) / 4, (quarters + 1) / 4] : [line];
}

/** How one bet settles on one final score (the same rule settlement applies). */
export function settleOnScore(kind: MarketKind, code: string, line: number | null, home: number, away: number): OutcomeDistribution {
  const out: OutcomeDistribution = { win: 0, halfWin: 0, push: 0, halfLoss: 0, loss: 0 };
  const parts = line === null ? [0] : splitLine(line);
  const states = parts.map((l) => settleWhole(kind, code, l, home, away));
  if (states.length === 1) {
    out[states[0]] = 1;
    return out;
  }
  const wins = states.filter((s) => s === 'win').length;
  const losses = states.filter((s) => s === 'loss').length;
  if (wins === 2) out.win = 1;
  else if (losses === 2) out.loss = 1;
  else if (wins === 1 && losses === 0) out.halfWin = 1;
  else if (losses === 1 && wins === 0) out.halfLoss = 1;
  else out.push = 1; // push+push, or a win and a loss that cancel
  return out;
}

export function effectiveProbability(d: OutcomeDistribution): number {
  const up = d.win + d.halfWin / 2;
  const down = d.loss + d.halfLoss / 2;
  return up + down > 0 ? up / (up + down) : 0;
}

function gridFor(inputs: PricingInputs, type: MarketType): ScoreGrid {
  if (type.stat === 'corners') {
    if (!inputs.corners) throw new RangeError(`${type.sysname} needs a corners count model`);
    return countGrid(inputs.corners);
  }
  if (type.stat === 'cards') {
    if (!inputs.cards) throw new RangeError(`${type.sysname} needs a cards count model`);
    return countGrid(inputs.cards);
  }
  if (type.period === '1H') {
    if (!inputs.firstHalf) throw new RangeError(`${type.sysname} needs a first-half score grid`);
    return inputs.firstHalf;
  }
  return inputs.fullTime;
}

export function priceOutcome(inputs: PricingInputs, sysname: string, code: string, line: number | null = null): PricedOutcome {
  const type = marketType(sysname);
  if (!type) throw new RangeError(`unknown market ${sysname}`);
  if (type.sportId !== inputs.sportId) throw new RangeError(`${sysname} is not a market of sport ${inputs.sportId}`);
  if (!CODES[type.kind].includes(code)) throw new RangeError(`${code} is not an outcome of ${sysname}`);
  const needsLine = type.kind === 'total' || type.kind === 'handicap';
  if (needsLine && (line === null || !Number.isFinite(line))) throw new RangeError(`${sysname} needs a line`);
  const effectiveLine = needsLine ? line : null;
  const grid = gridFor(inputs, type);
  const distribution: OutcomeDistribution = { win: 0, halfWin: 0, push: 0, halfLoss: 0, loss: 0 };
  forEachCell(grid, (h, a, p) => {
    const s = settleOnScore(type.kind, code, effectiveLine, h, a);
    distribution.win += p * s.win;
    distribution.halfWin += p * s.halfWin;
    distribution.push += p * s.push;
    distribution.halfLoss += p * s.halfLoss;
    distribution.loss += p * s.loss;
  });
  const probability = effectiveProbability(distribution);
  return { sysname, code, line: effectiveLine, distribution, probability, fairOdds: probability > 0 ? 1 / probability : Infinity };
}

/** Every outcome of one market at one line. */
export function priceMarket(inputs: PricingInputs, sysname: string, line: number | null = null): PricedOutcome[] {
  const type = marketType(sysname);
  if (!type) throw new RangeError(`unknown market ${sysname}`);
  return CODES[type.kind].map((code) => priceOutcome(inputs, sysname, code, line));
}
