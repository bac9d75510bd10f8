import { EMPTY_STATS, type EndState, type EventStats } from '../../../shared/domain/stats';

/** Full-time h-a with first half fh-fa, corners, cards; any field overridable (null = missing). */
export function stats(score: string, over: Partial<EventStats> = {}): EventStats {
  const [h, a] = score.split('-').map(Number);
  return {
    ...EMPTY_STATS,
    homeGoals: h,
    awayGoals: a,
    homeGoalsFirstHalf: 0,
    awayGoalsFirstHalf: 0,
    homeCorners: 5,
    awayCorners: 4,
    homeYellowCards: 2,
    awayYellowCards: 1,
    homeRedCards: 0,
    awayRedCards: 0,
    ...over,
  };
}

export function sel(betTypeSysname: string, code: string, line: number | null, s: EventStats, endState: EndState = 'completed', started = true, odds = 2) {
  return { betTypeSysname, code, line, stats: s, endState, started, odds };
}
