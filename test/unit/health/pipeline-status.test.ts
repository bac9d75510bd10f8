import { expect } from 'chai';
import { pipelineStatus, type PipelineReadings } from '../../../shared/domain/health/status';

const NOW = 1_000_000_000;
const base: PipelineReadings = { now: NOW, pollIntervalMs: 2000, uptimeMs: 60_000, providers: [{ name: 'simulated', lastSuccessAt: NOW - 1000 }], oldestAnalysisWaitingMs: null, settlementOverdue: 0 };

describe('pipeline status (pure)', () => {
  const cases: { name: string; readings: Partial<PipelineReadings>; status: 'ok' | 'degraded'; reason?: RegExp }[] = [
    { name: 'polled within three intervals', readings: {}, status: 'ok' },
    { name: 'last poll exactly three intervals ago', readings: { providers: [{ name: 'simulated', lastSuccessAt: NOW - 6000 }] }, status: 'ok' },
    {
      name: 'last poll more than three intervals ago',
      readings: { providers: [{ name: 'simulated', lastSuccessAt: NOW - 6001 }] },
      status: 'degraded',
      reason: /simulated last polled successfully 6 s ago/,
    },
    { name: 'never polled, fresh process', readings: { uptimeMs: 5000, providers: [{ name: 'simulated', lastSuccessAt: null }] }, status: 'ok' },
    { name: 'never polled since a start three intervals ago', readings: { uptimeMs: 6001, providers: [{ name: 'simulated', lastSuccessAt: null }] }, status: 'degraded', reason: /not been polled/ },
    {
      name: 'one of two providers stalled',
      readings: {
        providers: [
          { name: 'simulated', lastSuccessAt: NOW },
          { name: 'theoddsapi', lastSuccessAt: NOW - 60_000 },
        ],
      },
      status: 'degraded',
      reason: /theoddsapi/,
    },
    { name: 'analysis waiting three intervals', readings: { oldestAnalysisWaitingMs: 6000 }, status: 'ok' },
    { name: 'analysis waiting longer', readings: { oldestAnalysisWaitingMs: 6500 }, status: 'degraded', reason: /analysis has waited 7 s/ },
    { name: 'settlement overdue', readings: { settlementOverdue: 2 }, status: 'degraded', reason: /2 ended event/ },
  ];
  for (const c of cases) {
    it(`${c.status === 'ok' ? 'happy' : 'error'}: ${c.name} -> ${c.status}`, () => {
      const out = pipelineStatus({ ...base, ...c.readings });
      expect(out.status).to.equal(c.status);
      if (c.reason) expect(out.reasons.join('; ')).to.match(c.reason);
      else expect(out.reasons).to.deep.equal([]);
    });
  }
});
