import { expect } from 'chai';
import type { Request } from 'express';
import { AggregatorRegistry, Counter, Registry } from 'prom-client';
import { routeLabel } from '../../../api/middleware/httpMetrics';
import type { PollOutcome } from '../../../shared/app/ingest/poll';
import { recordAnalysis, recordFirstSettlements, recordPoll } from '../../../shared/app/metrics/record';
import { processRegistry } from '../../../shared/platform/metrics/registry';
import { jobAgeMs } from '../../../shared/platform/metrics/scrape';
import { parsePrometheus, valueOf } from '../../helpers/prometheus';

const req = (method: string, originalUrl: string, route?: string, baseUrl = '') => ({ method, originalUrl, baseUrl, route: route === undefined ? undefined : { path: route } }) as unknown as Request;

async function current(name: string, labels: Record<string, string> = {}): Promise<number> {
  return valueOf(parsePrometheus(await processRegistry.metrics()), name, labels) ?? 0;
}

describe('metrics: labels and recorders', () => {
  describe('route label', () => {
    const cases: [string, Request, string][] = [
      ['a /v2 endpoint with an id is its cost-table path, never the raw URL', req('GET', '/v2/matches/8100001?locale=es'), '/v2/matches/{eventId}'],
      ['a static /v2 path wins over the parameterised one', req('GET', '/v2/matches/trending'), '/v2/matches/trending'],
      ['a request refused before its route ran keeps the endpoint', req('GET', '/v2/ai/featured-picks'), '/v2/ai/featured-picks'],
      ['an operator route is its Express pattern', req('GET', '/metrics', '/metrics'), '/metrics'],
      ['a mounted router route joins base and pattern', req('GET', '/admin/queues/api/queues', '/api/queues', '/admin/queues'), '/admin/queues/api/queues'],
      ['an unknown path is unmatched (no unbounded label)', req('GET', '/v2/no/such/thing/123'), 'unmatched'],
      ['a method no route takes is unmatched', req('POST', '/v2/matches'), 'unmatched'],
    ];
    for (const [what, r, want] of cases) it(`happy: ${what}`, () => expect(routeLabel(r)).to.equal(want));
  });

  describe('oldest-job age', () => {
    const now = 1_000_000;
    const cases: [string, Parameters<typeof jobAgeMs>[0], { timestamp: number; delay: number; processedOn?: number }, number][] = [
      ['waiting: since enqueued', 'waiting', { timestamp: now - 5000, delay: 0 }, 5000],
      ['waiting after a delay: since it became due', 'waiting', { timestamp: now - 5000, delay: 3000 }, 2000],
      ['active: since it started', 'active', { timestamp: now - 9000, delay: 0, processedOn: now - 1000 }, 1000],
      ['delayed, not yet due: 0 (a designed delay is no backlog)', 'delayed', { timestamp: now - 1000, delay: 60000 }, 0],
      ['delayed past its due time: how long past', 'delayed', { timestamp: now - 70000, delay: 60000 }, 10000],
    ];
    for (const [what, state, job, want] of cases) it(`happy: ${what}`, () => expect(jobAgeMs(state, job, now)).to.equal(want));
  });

  describe('recorders', () => {
    it('happy: an ok poll counts its time, events and markets; a failed one only its outcome', async () => {
      const provider = `unit-${Date.now()}`;
      const ok = {
        status: 'ok',
        provider,
        partial: false,
        events: 3,
        live: 1,
        written: { events: 3, markets: 12, prices: 2, liveEventData: 1, history: 4, references: 0 },
        settle: 0,
        analyze: 2,
        readFromStore: 0,
        changes: 5,
        ms: { fetch: 10, read: 5, plan: 1, write: 1234, total: 1250, writes: { references: 4, events: 600, prices: 400, liveEventData: 100, history: 130 } },
      } satisfies PollOutcome;
      recordPoll(ok);
      recordPoll({ status: 'failed', provider, reason: 'error', error: 'boom', breaker: 'closed' });
      expect(await current('odds_events_written_total', { provider })).to.equal(3);
      expect(await current('odds_markets_written_total', { provider })).to.equal(12);
      expect(await current('odds_poll_duration_seconds_count', { provider })).to.equal(1);
      expect(await current('odds_poll_duration_seconds_sum', { provider })).to.equal(1.25);
      expect(await current('odds_polls_total', { provider, status: 'failed' })).to.equal(1);
    });

    it('happy: analysis lag is observed only for analyses that wrote, from the job creation', async () => {
      const before = await current('odds_analysis_lag_seconds_count');
      const sumBefore = await current('odds_analysis_lag_seconds_sum');
      recordAnalysis({ status: 'unchanged' }, 0, 10_000);
      recordAnalysis(undefined, 0, 10_000);
      recordAnalysis({ status: 'analyzed' }, 4_000, 10_000);
      expect(await current('odds_analysis_lag_seconds_count')).to.equal(before + 1);
      expect((await current('odds_analysis_lag_seconds_sum')) - sumBefore).to.be.closeTo(6, 1e-9);
    });

    it('happy: settlement lag counts first settlements of ended events only', async () => {
      const before = await current('odds_settlement_lag_seconds_count');
      const sumBefore = await current('odds_settlement_lag_seconds_sum');
      const settledAt = new Date('2026-11-21T15:00:00Z');
      recordFirstSettlements(
        [
          { endedAt: new Date('2026-11-21T14:55:00Z'), settledVersion: null }, // first: 300 s
          { endedAt: new Date('2026-11-21T14:00:00Z'), settledVersion: 0 }, // a correction's re-settlement
          { endedAt: null, settledVersion: null }, // cancelled before it started
        ],
        settledAt,
      );
      expect(await current('odds_settlement_lag_seconds_count')).to.equal(before + 1);
      expect((await current('odds_settlement_lag_seconds_sum')) - sumBefore).to.be.closeTo(300, 1e-9);
    });
  });

  describe('aggregation across processes', () => {
    it('happy: copies of one process kind add up; different kinds stay apart', async () => {
      const snapshot = async (process: string, n: number) => {
        const r = new Registry();
        r.setDefaultLabels({ process });
        new Counter({ name: 'odds_unit_total', help: 'h', labelNames: ['queue'], registers: [r] }).inc({ queue: 'ai' }, n);
        return r.getMetricsAsJSON();
      };
      const summed = AggregatorRegistry.aggregate([await snapshot('ai', 2), await snapshot('ai', 3), await snapshot('ingest', 7)]);
      const samples = parsePrometheus(await summed.metrics());
      expect(valueOf(samples, 'odds_unit_total', { process: 'ai', queue: 'ai' })).to.equal(5);
      expect(valueOf(samples, 'odds_unit_total', { process: 'ingest' })).to.equal(7);
    });
  });
});
