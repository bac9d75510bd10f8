import type { SportId } from '../../../../domain/sports';
import type { MarketSpec } from '../lines';
import type { LiveModel, MatchParams, MatchScript, MatchState } from '../match';
import type { Rng } from '../rng';

/**
 * One sport of the simulator, whole: its pre-match truth, how a match is scripted, its live
 * model, its markets, its phase layout for scenarios, and what its data carries. A new sport is a
 * new file in this folder and a line in its index.
 */
export interface SimSport {
  id: SportId;
  /** The pre-match truth between teams `d` apart in strength; `scoring` scales a competition's scores. */
  params(base: MatchParams, d: number, scoring: number): MatchParams;
  script(p: MatchParams, rng: Rng): MatchScript;
  /** Fair distributions for the rest of the match, given the state at `wall` (clamped to the match). */
  live(p: MatchParams, script: MatchScript, state: MatchState, wall: number): LiveModel;
  markets(p: MatchParams): MarketSpec[];
  /** The regulation phases when a scenario does not script them: `play(phase, wallMinutes, clockStartMinutes, clockMinutes)`, `pause(phase, wallMinutes, clockMinutes)`. */
  layout(play: (phase: string, wall: number, clockStart: number, clock: number) => void, pause: (phase: string, wall: number, clock: number) => void): void;
  /**
   * Its first half, when it has one: the play segment that ends it, how many periods it spans, and
   * the scenario minute it ends at.
   */
  firstHalf: { endSegment: number; periods: number; scenarioMinute: number } | null;
  /** Scored by incidents (goals with minutes, corners, cards: soccer's counts and first half). */
  incidentCounts: boolean;
  /** Lineups announced an hour before the start. */
  lineups: boolean;
  /** Books suspend their markets for a moment after a goal. */
  suspendsOnGoal: boolean;
}
