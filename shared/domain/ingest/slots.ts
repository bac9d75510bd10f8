/**
 * A poll is for its slot's start (the instant the provider's world is read at: pollJob's `at`),
 * so a poll fired late in its slot serves the world as it was up to an interval before. Pure.
 */

/** What a timer fires after the slot begins: never in the slot before (a timer can fire a little early on some clocks). */
export const SLOT_MARGIN_MS = 10;

/** Milliseconds from `nowMs` until the next slot of `intervalMs` begins, plus the margin. */
export function msToNextSlot(nowMs: number, intervalMs: number, marginMs = SLOT_MARGIN_MS): number {
  const into = ((nowMs % intervalMs) + intervalMs) % intervalMs;
  return intervalMs - into + marginMs;
}
