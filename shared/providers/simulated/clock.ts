/**
 * The simulated clock: `speed` simulated seconds per real second, anchored at a fixed epoch so
 * every worker reading the same real instant reads the same simulated instant.
 */
export interface SimClock {
  epochMs: number;
  speed: number;
}

export function simTime(clock: SimClock, realMs: number): number {
  return clock.speed === 1 ? realMs : clock.epochMs + (realMs - clock.epochMs) * clock.speed;
}
