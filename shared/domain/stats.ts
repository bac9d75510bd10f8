/**
 * The event result settlement reads (the contract's LiveEventData). Every count may be null when the
 * provider did not report it; grading decides what a null means for each market.
 * "Goals" carry the sport's score unit (points, sets, runs) for sports other than soccer.
 */
export interface EventStats {
  homeGoals: number | null;
  awayGoals: number | null;
  homeGoalsFirstHalf: number | null;
  awayGoalsFirstHalf: number | null;
  homeCorners: number | null;
  awayCorners: number | null;
  homeYellowCards: number | null;
  awayYellowCards: number | null;
  homeRedCards: number | null;
  awayRedCards: number | null;
}

/**
 * How an event ended. `postponed` means postponed after it had started (never-started events
 * do not settle); `abandoned` is a completion with the void flag.
 */
export type EndState = 'completed' | 'postponed' | 'abandoned';

/** Every count of EventStats, in its stored order (statsOf checks that none is missing). */
export const STAT_KEYS = [
  'homeGoals',
  'awayGoals',
  'homeGoalsFirstHalf',
  'awayGoalsFirstHalf',
  'homeCorners',
  'awayCorners',
  'homeYellowCards',
  'awayYellowCards',
  'homeRedCards',
  'awayRedCards',
] as const satisfies readonly (keyof EventStats)[];

export type StatKey = (typeof STAT_KEYS)[number];

/**
 * Stats with each count read by `count`, in STAT_KEYS order. It names every count of EventStats
 * with a StatKey, so a count added to EventStats and not to STAT_KEYS does not compile.
 */
export function statsOf(count: (k: StatKey) => number | null): EventStats {
  return {
    homeGoals: count('homeGoals'),
    awayGoals: count('awayGoals'),
    homeGoalsFirstHalf: count('homeGoalsFirstHalf'),
    awayGoalsFirstHalf: count('awayGoalsFirstHalf'),
    homeCorners: count('homeCorners'),
    awayCorners: count('awayCorners'),
    homeYellowCards: count('homeYellowCards'),
    awayYellowCards: count('awayYellowCards'),
    homeRedCards: count('homeRedCards'),
    awayRedCards: count('awayRedCards'),
  };
}

export const EMPTY_STATS: EventStats = statsOf(() => null);
