/**
 * Whether the pipeline keeps up, from what /v2/health measured (pure). The process answering is
 * alive either way: a degraded pipeline is still a 200, with the reasons a status page shows.
 */
export interface PipelineReadings {
  now: number;
  pollIntervalMs: number;
  /** Seconds this web process has been up: a fresh stack has not polled yet. */
  uptimeMs: number;
  providers: { name: string; lastSuccessAt: number | null }[];
  /** Age of the oldest analysis waiting in the ai queue, null when none waits. */
  oldestAnalysisWaitingMs: number | null;
  /** Ended events whose settlement is more than a minute past due. */
  settlementOverdue: number;
}

export const STALL_INTERVALS = 3;

export function pipelineStatus(r: PipelineReadings): { status: 'ok' | 'degraded'; reasons: string[] } {
  const limit = STALL_INTERVALS * r.pollIntervalMs;
  const reasons: string[] = [];
  for (const p of r.providers) {
    const age = p.lastSuccessAt === null ? null : r.now - p.lastSuccessAt;
    if (age === null ? r.uptimeMs > limit : age > limit) {
      reasons.push(age === null ? `provider ${p.name} has not been polled successfully since this process started` : `provider ${p.name} last polled successfully ${Math.round(age / 1000)} s ago`);
    }
  }
  if (r.oldestAnalysisWaitingMs !== null && r.oldestAnalysisWaitingMs > limit) {
    reasons.push(`an analysis has waited ${Math.round(r.oldestAnalysisWaitingMs / 1000)} s`);
  }
  if (r.settlementOverdue > 0) reasons.push(`${r.settlementOverdue} ended event(s) overdue for settlement by more than a minute`);
  return { status: reasons.length ? 'degraded' : 'ok', reasons };
}
