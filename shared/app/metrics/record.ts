import { toRealTime } from '../../platform/clock/worldClock';
import type { PollOutcome } from '../ingest/poll';
import { analysisLag, eventsWritten, marketsWritten, pollDuration, polls, settlementLag } from '../../platform/metrics/registry';

/** What a finished poll job tells: its outcome, and for a successful one its time and writes. */
export function recordPoll(outcome: PollOutcome): void {
  const provider = outcome.provider;
  polls.inc({ provider, status: outcome.status });
  if (outcome.status !== 'ok') return;
  pollDuration.observe({ provider }, outcome.ms.total / 1000);
  eventsWritten.inc({ provider }, outcome.written.events);
  marketsWritten.inc({ provider }, outcome.written.markets ?? 0);
}

/**
 * An analysis that wrote recommendations: its lag runs from when the odds change queued it (the
 * coalesced job's creation, the oldest change it answers: the queue wait is part of the lag) to now.
 */
export function recordAnalysis(outcome: { status: string } | undefined, queuedAt: number, now = Date.now()): void {
  if (outcome?.status !== 'analyzed') return;
  analysisLag.observe(Math.max(0, now - queuedAt) / 1000);
}

/** Events settled for the first time: from each event's end to the settlement. */
export function recordFirstSettlements(events: readonly { endedAt?: Date | null; settledVersion?: number | null }[], settledAt: Date): void {
  for (const e of events) {
    if (e.settledVersion !== null && e.settledVersion !== undefined) continue; // a re-settlement (correction), not the first
    if (!e.endedAt) continue; // cancelled before it started: nothing ended
    // endedAt is the world's (simulated) time: the lag runs from the real instant it maps to.
    settlementLag.observe(Math.max(0, settledAt.getTime() - toRealTime(e.endedAt.getTime())) / 1000);
  }
}
