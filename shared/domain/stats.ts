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

export const EMPTY_STATS: EventStats = {
  homeGoals: null,
  awayGoals: null,
  homeGoalsFirstHalf: null,
  awayGoalsFirstHalf: null,
  homeCorners: null,
  awayCorners: null,
  homeYellowCards: null,
  awayYellowCards: null,
  homeRedCards: null,
  awayRedCards: null,
};
