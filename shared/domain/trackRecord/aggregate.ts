import { clusteredStandardError, mean } from '../ai/metrics';
import type { ResultTally } from '../grading/performance';

/**
 * The track record of settled recommendations, pure: counts, flat 1-unit profit and ROI, closing
 * line value, calibration. Everything is computed from the bets given (no rollups), so the same
 * bets always give the same record.
 */
export interface TrackRecordBet {
  confidence: string;
  /** The model's probability that the bet wins, when it was written. */
  probability: number;
  odds: number;
  result: string | null;
  resultDetail?: string | null;
  /** What one unit staked returned (0 lost, odds won, 1 push; halves for quarter lines). */
  returnPerUnit?: number | null;
  eventStartAt: Date;
  /** Taken odds over the de-vigged closing fair odds, minus one; absent where no closing line was captured. */
  clv?: number | null;
  /** The bet's event: bets on one event share its result, so standard errors count them as one cluster (absent: a cluster of its own). */
  eventId?: string;
}

/**
 * Standard error of a mean over bets, clustered by event: a recommendation re-issued at new odds,
 * or another market of the same match, is not independent evidence. Null under two events.
 */
function betStandardError(values: readonly number[], bets: readonly TrackRecordBet[]): number | null {
  const se = clusteredStandardError(
    values,
    bets.map((b, i) => b.eventId ?? `#${i}`),
  );
  return finiteOrNull(se);
}

export type ClvSummary = {
  /** Bets with a closing line. */
  bets: number;
  mean: number | null;
  /** Of the mean, clustered by event (bets on one event are not independent); null under two events. */
  standardError: number | null;
  /** Share of those bets whose odds beat the close (clv > 0). */
  beatCloseShare: number | null;
};

export type CalibrationBin = {
  /** Predicted win probability range [from, to). */
  from: number;
  to: number;
  bets: number;
  /** Mean predicted probability of the bets in the bin. */
  predicted: number;
  /** Observed win rate: won 1, half won 0.5, lost and half lost 0 (pushes are left out). */
  observed: number;
  /** Binomial standard error of `observed` at the predicted rate: the noise to judge a gap against. */
  standardError: number;
};

/** The tally stakes 1 unit per bet. */
export type RecordSummary = ResultTally & {
  bets: number;
  /** profit / staked; null without bets. */
  roi: number | null;
  /** Standard error of the ROI (of the mean profit per 1-unit bet, clustered by event); null under two events. A record is luck until ROI is a few of these from 0. */
  roiStandardError: number | null;
  clv: ClvSummary;
};

export type TrackRecord = RecordSummary & {
  calibration: CalibrationBin[];
  byConfidence: (RecordSummary & { confidence: string })[];
};

export const CONFIDENCE_ORDER = ['High', 'Medium', 'Low'] as const;
export const CALIBRATION_BINS = 10;

const round = (x: number, digits = 6) => Math.round(x * 10 ** digits) / 10 ** digits;
const finiteOrNull = (x: number) => (Number.isFinite(x) ? round(x) : null);

const betReturn = (b: TrackRecordBet): number => {
  if (typeof b.returnPerUnit === 'number' && Number.isFinite(b.returnPerUnit)) return b.returnPerUnit;
  return b.result === 'won' ? b.odds : b.result === 'push' ? 1 : 0;
};

/** The bets with a closing line's clv values. */
export const clvValues = (bets: readonly TrackRecordBet[]): number[] => bets.map((b) => b.clv).filter((c): c is number => typeof c === 'number' && Number.isFinite(c));

export function clvSummary(bets: readonly TrackRecordBet[]): ClvSummary {
  const withClose = bets.filter((b): b is TrackRecordBet & { clv: number } => typeof b.clv === 'number' && Number.isFinite(b.clv));
  const v = withClose.map((b) => b.clv);
  if (v.length === 0) return { bets: 0, mean: null, standardError: null, beatCloseShare: null };
  return { bets: v.length, mean: finiteOrNull(mean(v)), standardError: betStandardError(v, withClose), beatCloseShare: round(v.filter((c) => c > 0).length / v.length) };
}

export function summarize(bets: readonly TrackRecordBet[]): RecordSummary {
  const wins = bets.filter((b) => b.result === 'won').length;
  const losses = bets.filter((b) => b.result === 'lost').length;
  const pushes = bets.filter((b) => b.result === 'push').length;
  const returns = bets.map(betReturn);
  const returned = returns.reduce((s, r) => s + r, 0);
  const staked = bets.length;
  return {
    bets: staked,
    wins,
    losses,
    pushes,
    staked,
    returned: round(returned),
    profit: round(returned - staked),
    roi: staked ? round((returned - staked) / staked) : null,
    roiStandardError: betStandardError(
      returns.map((r) => r - 1),
      bets,
    ),
    clv: clvSummary(bets),
  };
}

/** Win score of a graded bet for calibration; null for a push (neither a win nor a loss). */
function hitScore(b: TrackRecordBet): number | null {
  if (b.result === 'push') return null;
  if (b.resultDetail === 'half_won') return 0.5;
  return b.result === 'won' ? 1 : b.result === 'lost' ? 0 : null;
}

/** Fixed-width bins of predicted probability (tenths by default); empty bins are left out. */
export function calibrationBins(bets: readonly TrackRecordBet[], bins = CALIBRATION_BINS): CalibrationBin[] {
  const acc = Array.from({ length: bins }, () => ({ n: 0, p: 0, hit: 0 }));
  for (const b of bets) {
    const hit = hitScore(b);
    if (hit === null || !Number.isFinite(b.probability)) continue;
    const i = Math.min(bins - 1, Math.max(0, Math.floor(b.probability * bins)));
    acc[i].n++;
    acc[i].p += b.probability;
    acc[i].hit += hit;
  }
  return acc.flatMap((a, i) => {
    if (a.n === 0) return [];
    const predicted = a.p / a.n;
    return [
      { from: round(i / bins), to: round((i + 1) / bins), bets: a.n, predicted: round(predicted), observed: round(a.hit / a.n), standardError: round(Math.sqrt((predicted * (1 - predicted)) / a.n)) },
    ];
  });
}

export function trackRecord(bets: readonly TrackRecordBet[]): TrackRecord {
  const known = new Set<string>(CONFIDENCE_ORDER);
  const levels = [...CONFIDENCE_ORDER, ...[...new Set(bets.map((b) => b.confidence))].filter((c) => !known.has(c)).sort()];
  return {
    ...summarize(bets),
    calibration: calibrationBins(bets),
    byConfidence: levels.map((confidence) => ({ confidence, ...summarize(bets.filter((b) => b.confidence === confidence)) })),
  };
}

/** Running profit in units after each bet, oldest event first (the cumulative chart). */
export function cumulativeProfit(bets: readonly TrackRecordBet[]): number[] {
  const sorted = [...bets].sort((a, b) => a.eventStartAt.getTime() - b.eventStartAt.getTime());
  let total = 0;
  return sorted.map((b) => (total = round(total + betReturn(b) - 1)));
}

/**
 * The first recommendation of each outcome of each event (by creation time): a recommendation
 * re-issued at new odds is another document and, by default, another bet of the record; this is
 * the record of a follower who took the first price once.
 */
export function firstPerOutcome<T extends { eventId: string; betItemId: string; createdAt?: Date | null }>(bets: readonly T[]): T[] {
  // A document without a creation time (written before it was kept) counts after the dated ones, in the order given.
  const time = (b: T) => (b.createdAt instanceof Date ? b.createdAt.getTime() : Infinity);
  const first = new Map<string, T>();
  for (const b of [...bets].sort((x, y) => time(x) - time(y) || 0)) {
    const k = `${b.eventId}|${b.betItemId}`;
    if (!first.has(k)) first.set(k, b);
  }
  return bets.filter((b) => first.get(`${b.eventId}|${b.betItemId}`) === b);
}
