/**
 * When a delivery is tried again, and when an endpoint that keeps failing is turned off (pure).
 */

/** Svix's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after each failed attempt (8 attempts over 27.6 hours). */
export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** Parses WEBHOOK_RETRY_SCHEDULE_MS's items (each a whole number of ms, 1 to 7 days). */
export function parseRetrySchedule(items: readonly string[]): number[] {
  const out = items.map((s) => Number(s));
  for (const [i, ms] of out.entries()) if (!Number.isInteger(ms) || ms < 1 || ms > 7 * 86_400_000) throw new RangeError(`retry ${i + 1} (${items[i]}) must be a whole number of ms from 1 to 7 days`);
  return out;
}

/**
 * After failed attempt `attempt` (1-based), the delay before the next one; null when the schedule
 * is spent (the delivery has failed).
 */
export function retryDelay(schedule: readonly number[], attempt: number): number | null {
  return attempt >= 1 && attempt <= schedule.length ? schedule[attempt - 1] : null;
}

/** Attempts a delivery gets in all: the first and one per retry. */
export const attemptsOf = (schedule: readonly number[]) => schedule.length + 1;

/** An endpoint's run of failed attempts since its last success. */
export interface FailureRun {
  /** Failed attempts in a row. */
  run: number;
  /** When the first of them failed (ms), null without a failure. */
  sinceMs: number | null;
}

/**
 * Whether a run of failures turns the endpoint off: at least `minFailures` attempts in a row have
 * failed, the first of them at least `afterMs` ago (both, so a burst of events to an endpoint down
 * for a minute does not, and an endpoint that fails once a day for days does not either).
 */
export function shouldDisable(run: FailureRun, nowMs: number, rule: { minFailures: number; afterMs: number }): boolean {
  return run.run >= rule.minFailures && run.sinceMs !== null && nowMs - run.sinceMs >= rule.afterMs;
}

/** What an attempt's answer counts as: a 2xx delivered it; anything else (3xx included: redirects are not followed) failed it. */
export const delivered = (statusCode: number | null): boolean => statusCode !== null && statusCode >= 200 && statusCode < 300;
