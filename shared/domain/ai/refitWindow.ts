/**
 * When the scheduler asks for a refit: every REFIT_INTERVAL_MS of real time, at most once per
 * hour of the world's clock, and fitted at the world's now. In production the two clocks are one
 * and it refits hourly; a replayed world at 3000x lives 125 days in a real hour, so the replay
 * asks every minute (two of its days) and the refit sees the games the world has played. Pure.
 */

/** The refit window of a world instant: its UTC hour, YYYYMMDDHH. */
export const refitWindowOf = (worldNow: Date): string => worldNow.toISOString().slice(0, 13).replace(/[-:T]/g, '');

/** The window to refit now, or null when the last one asked for is this world hour's. */
export function refitWindowDue(lastAsked: string | null, worldNow: Date): string | null {
  const window = refitWindowOf(worldNow);
  return window === lastAsked ? null : window;
}
