import type { MatchCounts } from '../../data/footballData';
import type { ScenarioIncident } from '../simulated/scenario';
import { Rng } from '../simulated/rng';

/**
 * A plausible in-play path for a real match whose file gives only counts: goal minutes drawn
 * from a seeded generator, consistent with the real half-time and full-time score; corners and
 * cards spread over the match (cards more often late, as they come). Pure in (seed, key, counts).
 *
 * Minutes are wall minutes from kickoff on the scenario's soccer template (first half 0-45,
 * half-time 45-60, second half 60-105), which is what the scenario evaluator reads.
 */
export interface FinalCounts extends MatchCounts {
  fthg: number;
  ftag: number;
}

const FIRST_HALF = [1, 44.5] as const;
const SECOND_HALF = [61, 104.5] as const;

function minuteIn(rng: Rng, [from, to]: readonly [number, number]): number {
  return Math.round((from + rng.next() * (to - from)) * 10) / 10;
}

/** A minute anywhere in play; `late` >= 0 moves the draw towards the end of the match. */
function playMinute(rng: Rng, late = 0): number {
  const share = Math.pow(rng.next(), 1 / (1 + late));
  const [from, to] = share < 0.5 ? FIRST_HALF : SECOND_HALF;
  const within = share < 0.5 ? share * 2 : (share - 0.5) * 2;
  return Math.round((from + within * (to - from)) * 10) / 10;
}

export function matchTimeline(seed: number, key: string, c: FinalCounts): ScenarioIncident[] {
  const rng = new Rng(seed, `replay-timeline|${key}`);
  const out: ScenarioIncident[] = [];
  // Without a half-time score each goal falls in the first half with the share goals usually do (about 45 %).
  let h1 = c.hthg;
  let a1 = c.htag;
  if (h1 === null || a1 === null) {
    h1 = 0;
    a1 = 0;
    for (let i = 0; i < c.fthg; i++) if (rng.next() < 0.45) h1++;
    for (let i = 0; i < c.ftag; i++) if (rng.next() < 0.45) a1++;
  }
  const goals = (home: number, away: number, half: readonly [number, number]) => {
    for (let i = 0; i < home; i++) out.push({ minute: minuteIn(rng, half), type: 'goal', team: 'home' });
    for (let i = 0; i < away; i++) out.push({ minute: minuteIn(rng, half), type: 'goal', team: 'away' });
  };
  goals(h1, a1, FIRST_HALF);
  goals(c.fthg - h1, c.ftag - a1, SECOND_HALF);
  const spread = (n: number | null, type: ScenarioIncident['type'], team: 'home' | 'away', late: number) => {
    for (let i = 0; i < (n ?? 0); i++) out.push({ minute: playMinute(rng, late), type, team });
  };
  spread(c.homeCorners, 'corner', 'home', 0);
  spread(c.awayCorners, 'corner', 'away', 0);
  spread(c.homeYellow, 'yellow', 'home', 1);
  spread(c.awayYellow, 'yellow', 'away', 1);
  spread(c.homeRed, 'red', 'home', 2);
  spread(c.awayRed, 'red', 'away', 2);
  return out.sort((x, y) => x.minute - y.minute);
}

/** Why a row's counts cannot be played (null when they can): half-time above full-time, negatives. */
export function inconsistentCounts(c: FinalCounts): string | null {
  if (c.fthg < 0 || c.ftag < 0) return 'negative full-time score';
  if (c.hthg !== null && c.htag !== null && (c.hthg > c.fthg || c.htag > c.ftag || c.hthg < 0 || c.htag < 0)) return `half-time score ${c.hthg}-${c.htag} does not fit full-time ${c.fthg}-${c.ftag}`;
  return null;
}
