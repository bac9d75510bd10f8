import { isFiniteNumber, isRecord } from '../records';

/**
 * The simulated world's clock, as pure decisions. Simulated time runs `speed` times faster than
 * real time from an anchor (a real instant and the simulated instant it maps to). The anchor is
 * shared by every process of a deployment (stored in Redis by `worldClock.ts`) so they all read
 * the same simulated instant; these functions decide when a stored anchor no longer fits the
 * configuration and what replaces it.
 */
import { DAY_MS } from '../days';

export interface ClockSettings {
  speed: number;
  /** SIM_EPOCH: the simulated instant a new anchor starts at; null = the real instant. */
  epoch: string | null;
}

export interface ClockAnchor {
  realMs: number;
  simMs: number;
  speed: number;
  epoch: string | null;
}

/** Simulated time never runs further ahead of real time than this: no event dated a season ahead. */
export const MAX_LEAD_MS = 180 * DAY_MS;

export const isRealTime = (s: ClockSettings): boolean => s.speed === 1 && s.epoch === null;

export function simAt(anchor: ClockAnchor, realMs: number): number {
  return anchor.simMs + (realMs - anchor.realMs) * anchor.speed;
}

export interface Reconciled {
  anchor: ClockAnchor;
  /** Why the stored anchor was replaced (for the log line); absent when it was kept. */
  replaced?: string;
}

const fresh = (s: ClockSettings, realNow: number): ClockAnchor => ({
  realMs: realNow,
  simMs: s.epoch === null ? realNow : Date.parse(s.epoch),
  speed: s.speed,
  epoch: s.epoch,
});

/**
 * The anchor to use now, given the stored one (null when none, or unreadable). A stored anchor of
 * the same settings is kept. A new speed continues from the simulated instant reached, so events
 * already stored keep their place in time; a new SIM_EPOCH starts over from it. Whatever the
 * history, simulated time is never more than MAX_LEAD_MS ahead of real time: past that, the clock
 * starts over at real time.
 */
export function reconcileAnchor(stored: ClockAnchor | null, s: ClockSettings, realNow: number): Reconciled {
  let anchor: ClockAnchor;
  let replaced: string | undefined;
  if (stored && stored.speed === s.speed && stored.epoch === s.epoch) {
    anchor = stored;
  } else if (!stored) {
    anchor = fresh(s, realNow);
  } else if (stored.epoch !== s.epoch) {
    anchor = fresh(s, realNow);
    replaced = `SIM_EPOCH changed (${stored.epoch ?? 'unset'} -> ${s.epoch ?? 'unset'}): the simulated clock starts over at ${new Date(anchor.simMs).toISOString()}`;
  } else {
    anchor = { realMs: realNow, simMs: simAt(stored, realNow), speed: s.speed, epoch: s.epoch };
    replaced = `SIM_SPEED changed (${stored.speed} -> ${s.speed}): the simulated clock continues from ${new Date(anchor.simMs).toISOString()} at the new speed`;
  }
  const lead = simAt(anchor, realNow) - realNow;
  if (lead > MAX_LEAD_MS || !Number.isFinite(lead)) {
    anchor = { realMs: realNow, simMs: realNow, speed: s.speed, epoch: s.epoch };
    replaced = `the simulated clock was ${Math.round(lead / DAY_MS)} days ahead of real time (more than ${MAX_LEAD_MS / DAY_MS}): it starts over at the real time`;
  }
  return { anchor, replaced };
}

export function parseAnchor(raw: string | null): ClockAnchor | null {
  if (!raw) return null;
  try {
    const a: unknown = JSON.parse(raw);
    if (!isRecord(a)) return null;
    const { realMs, simMs, speed, epoch } = a;
    const ok = isFiniteNumber(realMs) && isFiniteNumber(simMs) && typeof speed === 'number' && Number.isInteger(speed) && (epoch === null || typeof epoch === 'string');
    return ok ? { realMs, simMs, speed, epoch } : null;
  } catch {
    return null;
  }
}

/**
 * The anchor that moves the simulated clock forward to `toSimMs` now (a world with nothing
 * happening until then, such as a replay between seasons, skips the wait); null when the clock
 * is there already: it never goes back.
 */
export function skipAnchor(anchor: ClockAnchor, realNow: number, toSimMs: number): ClockAnchor | null {
  if (!Number.isFinite(toSimMs) || toSimMs <= simAt(anchor, realNow)) return null;
  return { realMs: realNow, simMs: toSimMs, speed: anchor.speed, epoch: anchor.epoch };
}
