/**
 * When the scheduler asks for a refit: once per hour of the world's clock, not the machine's. In
 * production the two are one; a simulated or replayed world at 3000x lives 125 days in a real
 * hour, and a refit per real hour would rate its teams on games months old. The scheduler checks
 * every REFIT_CHECK_MS (real), so a fast world refits at most that often. Pure.
 */
export const REFIT_CHECK_MS = 60_000;

/** The refit window of a world instant: its UTC hour, YYYYMMDDHH. */
export const refitWindowOf = (worldNow: Date): string => worldNow.toISOString().slice(0, 13).replace(/[-:T]/g, '');

/** The window to refit now, or null when the last one asked for is this world hour's. */
export function refitWindowDue(lastAsked: string | null, worldNow: Date): string | null {
  const window = refitWindowOf(worldNow);
  return window === lastAsked ? null : window;
}
