import { expect } from 'chai';
import { aiQueue } from '../../jobs/ai';
import { ingestQueue } from '../../jobs/ingest';
import { RECHARGE_RETRY_DELAY_MS, rechargeQueue } from '../../jobs/recharge';
import { settlementQueue } from '../../jobs/settlement';
import { webhooksQueue } from '../../jobs/webhooks';
import { afterDebitIntents, chargeIntent, retryIntent, sweepChargeIntent } from '../../shared/app/billing/recharge';
import { followUpIntents } from '../../shared/app/ingest/poll';
import { jobIdOf, type EnqueueIntent, type Intent } from '../../shared/app/intents';
import { correctionIntents } from '../../shared/app/settlement/correct';
import { sweepIntents, type SweepCandidate } from '../../shared/app/settlement/sweep';

/**
 * Domain code returns what it wants done with the queues (shared/app/intents.ts); these tables show
 * the intentions each refactored function returns, without Redis. Job ids come from the jobs/
 * builders, unchanged: idempotency depends on them.
 */

describe('intentions: job ids are the jobs/ builders (unchanged)', () => {
  const cases: [string, EnqueueIntent, string][] = [
    ['settle-event', { kind: 'enqueue', queue: 'settlement', name: 'settle-event', data: { eventId: 'e1', resultVersion: 2 } }, 'settle-e1-v2'],
    ['settlement sweep', { kind: 'enqueue', queue: 'settlement', name: 'sweep', data: { window: 'w5' } }, 'sweep-w5'],
    ['rollup', { kind: 'enqueue', queue: 'settlement', name: 'rollup', data: { day: '2024-05-01' } }, 'rollup-2024-05-01'],
    ['charge', { kind: 'enqueue', queue: 'recharge', name: 'charge', data: { accountId: 'acc', window: 'v1s3', attempt: 2 } }, 'charge-acc-v1s3-a2'],
    ['recharge sweep', { kind: 'enqueue', queue: 'recharge', name: 'sweep', data: { window: 'w' } }, 'recharge-sweep-w'],
    ['poll', { kind: 'enqueue', queue: 'ingest', name: 'poll', data: { provider: 'sim', slot: 7 } }, 'poll-sim-7'],
    ['refit', { kind: 'enqueue', queue: 'ai', name: 'refit', data: { sportId: 1, window: '30d' } }, 'refit-1-30d'],
    ['webhook attempt', { kind: 'enqueue', queue: 'webhooks', name: 'deliver', data: { deliveryId: 'we_a_msg_b', attempt: 3 } }, 'wh-we_a_msg_b-a3'],
    ['webhook resend', { kind: 'enqueue', queue: 'webhooks', name: 'deliver', data: { deliveryId: 'we_a_msg_b', attempt: 3, manual: true } }, 'wh-we_a_msg_b-a3m'],
  ];
  for (const [what, intent, id] of cases) {
    it(`happy: ${what} -> ${id}`, () => {
      expect(jobIdOf(intent)).to.equal(id);
      const def = { settlement: settlementQueue, recharge: rechargeQueue, ingest: ingestQueue, ai: aiQueue, webhooks: webhooksQueue }[intent.queue];
      expect(jobIdOf(intent)).to.equal((def.jobs as Record<string, { jobId: (p: object) => string }>)[intent.name].jobId(intent.data));
    });
  }
  it('error: an unknown job name is refused, naming the queue', () => {
    expect(() => jobIdOf({ kind: 'enqueue', queue: 'settlement', name: 'nope', data: {} } as unknown as EnqueueIntent)).to.throw(/queue settlement has no job named nope/);
  });
});

describe('intentions: settlement sweep (sweepIntents)', () => {
  const now = new Date('2024-05-01T12:00:00Z');
  const at = (iso: string) => new Date(iso);
  const ev = (id: string, rest: Partial<SweepCandidate> = {}): SweepCandidate => ({ _id: id, status: 'completed', ...rest });
  const settle = (eventId: string, resultVersion: number, delay: number): EnqueueIntent => ({
    kind: 'enqueue',
    queue: 'settlement',
    name: 'settle-event',
    data: { eventId, resultVersion },
    delay,
    existing: 'replace-finished',
  });
  const cases: [string, SweepCandidate[], EnqueueIntent[]][] = [
    ['no candidates: nothing', [], []],
    ['ended long ago: no delay', [ev('a', { endedAt: at('2024-05-01T11:00:00Z'), resultVersion: 1 })], [settle('a', 1, 0)]],
    ['ended 30 s ago: the rest of the minimum delay', [ev('b', { endedAt: at('2024-05-01T11:59:30Z') })], [settle('b', 0, 90_000)]],
    ['no end time: no delay, version 0', [ev('c', { status: 'postponed', endedAt: null, resultVersion: undefined })], [settle('c', 0, 0)]],
    ['order kept', [ev('x', { resultVersion: 3 }), ev('y', { resultVersion: 2 })], [settle('x', 3, 0), settle('y', 2, 0)]],
  ];
  for (const [what, candidates, want] of cases) it(`happy: ${what}`, () => expect(sweepIntents(candidates, now, 120_000, (ms) => ms)).to.deep.equal(want));

  it('happy: the world-time end maps to real time before the delay', () => {
    const [intent] = sweepIntents([ev('d', { endedAt: at('2024-05-01T11:00:00Z') })], now, 120_000, (ms) => ms + 3_600_000);
    expect(intent.delay).to.equal(120_000);
    expect(jobIdOf(intent)).to.equal('settle-d-v0');
  });
});

describe('intentions: result correction (correctionIntents)', () => {
  const settle = (resultVersion: number): EnqueueIntent[] => [{ kind: 'enqueue', queue: 'settlement', name: 'settle-event', data: { eventId: 'e1', resultVersion }, delay: 0 }];
  const cases: [string, { resultVersion?: number | null; settledVersion?: number | null }, boolean, EnqueueIntent[]][] = [
    ['changed: the next version', { resultVersion: 2, settledVersion: 2 }, true, settle(3)],
    ['changed, never versioned: version 1', { resultVersion: null, settledVersion: null }, true, settle(1)],
    ['unchanged, settled: nothing', { resultVersion: 2, settledVersion: 2 }, false, []],
    ['unchanged, behind: the current version', { resultVersion: 2, settledVersion: 1 }, false, settle(2)],
    ['unchanged, never settled: version 0', { resultVersion: null, settledVersion: null }, false, settle(0)],
  ];
  for (const [what, event, changed, want] of cases) it(`happy: ${what}`, () => expect(correctionIntents('e1', event, changed)).to.deep.equal(want));
});

describe('intentions: auto-recharge', () => {
  const charge = (attempt: number, delay?: number, window = 'v3s2') => chargeIntent('acc', window, attempt, delay);

  describe('afterDebitIntents', () => {
    const on = { enabled: true, threshold: 100, version: 3 };
    const cases: [string, typeof on, { balance: number; topUpSeq: number }, string | undefined, EnqueueIntent[]][] = [
      ['under the threshold: attempt 1 of the window, no delay option', on, { balance: 99, topUpSeq: 2 }, undefined, [charge(1)]],
      ['at the threshold: nothing', on, { balance: 100, topUpSeq: 2 }, undefined, []],
      ['off: nothing', { ...on, enabled: false }, { balance: 0, topUpSeq: 2 }, undefined, []],
      ['this window already triggered here: nothing', on, { balance: 0, topUpSeq: 2 }, 'v3s2', []],
      ['an older window triggered: the new one', on, { balance: 0, topUpSeq: 2 }, 'v3s1', [charge(1)]],
    ];
    for (const [what, settings, head, triggered, want] of cases) {
      it(`happy: ${what}`, () => expect(afterDebitIntents('acc', settings, head, triggered)).to.deep.equal(want));
    }
    it('happy: no delay key at all on attempt 1 (the options stay as before)', () => {
      expect(afterDebitIntents('acc', on, { balance: 0, topUpSeq: 2 }, undefined)[0]).to.not.have.property('delay');
      expect(jobIdOf(charge(1))).to.equal('charge-acc-v3s2-a1');
    });
  });

  describe('retryIntent', () => {
    const decided = 1_000_000;
    const cases: [string, number, EnqueueIntent][] = [
      ['just declined: an hour', decided, charge(2, RECHARGE_RETRY_DELAY_MS)],
      ['declined 10 min ago: the rest of the hour', decided + 600_000, charge(2, RECHARGE_RETRY_DELAY_MS - 600_000)],
      ['overdue: now', decided + 2 * RECHARGE_RETRY_DELAY_MS, charge(2, 0)],
    ];
    for (const [what, now, want] of cases) it(`happy: ${what}`, () => expect(retryIntent('acc', 'v3s2', decided, now)).to.deep.equal(want));
  });

  describe('sweepChargeIntent', () => {
    const now = 5_000_000;
    const retryFailed = (i: EnqueueIntent): EnqueueIntent => ({ ...i, existing: 'retry-failed' });
    const cases: [string, { status?: string | null; decidedAt?: Date | null } | null, EnqueueIntent][] = [
      ['no attempt yet: attempt 1 now', null, retryFailed(charge(1, 0))],
      ['attempt 1 pending: attempt 1 now', { status: 'charging' }, retryFailed(charge(1, 0))],
      ['attempt 1 declined 10 min ago: attempt 2 at the hour', { status: 'declined', decidedAt: new Date(now - 600_000) }, retryFailed(charge(2, RECHARGE_RETRY_DELAY_MS - 600_000))],
      ['attempt 1 declined, no decision time: attempt 2 now', { status: 'declined', decidedAt: null }, retryFailed(charge(2, 0))],
    ];
    for (const [what, first, want] of cases) it(`happy: ${what}`, () => expect(sweepChargeIntent('acc', 'v3s2', first, now)).to.deep.equal(want));
  });
});

describe('intentions: ingest poll follow-ups (followUpIntents)', () => {
  const day = (iso: string) => new Date(iso);
  const events = [
    { eventId: 'late', startDateTime: day('2024-05-02T20:00:00Z') },
    { eventId: 'soon', startDateTime: day('2024-05-01T13:00:00Z') },
  ];
  const empty = { settle: [], analyze: [], statusChanges: [] };
  type Plan = Parameters<typeof followUpIntents>[0];
  const cases: [string, Plan, Intent[]][] = [
    ['nothing to do: no intentions', empty, []],
    [
      'settlements in one bulk, each with its delay',
      {
        ...empty,
        settle: [
          { eventId: 'a', resultVersion: 0 },
          { eventId: 'b', resultVersion: 2 },
        ],
      },
      [
        {
          kind: 'enqueue-many',
          queue: 'settlement',
          name: 'settle-event',
          jobs: [
            { data: { eventId: 'a', resultVersion: 0 }, delay: 1 },
            { data: { eventId: 'b', resultVersion: 2 }, delay: 2 },
          ],
        },
      ],
    ],
    [
      'analyses soonest kickoff first',
      {
        ...empty,
        analyze: [
          { eventId: 'late', version: 1 },
          { eventId: 'soon', version: 4 },
        ],
      },
      [{ kind: 'request-analyses', eventIds: ['soon', 'late'] }],
    ],
    [
      'a picks rebuild per day an event left before kickoff (once per day)',
      {
        ...empty,
        statusChanges: [
          { eventId: 'p', status: 'postponed', beforeKickoff: true, startDateTime: day('2024-05-01T13:00:00Z') },
          { eventId: 'q', status: 'cancelled', beforeKickoff: true, startDateTime: day('2024-05-01T18:00:00Z') },
          { eventId: 'r', status: 'completed', beforeKickoff: false, startDateTime: day('2024-05-03T18:00:00Z') },
        ],
      },
      [{ kind: 'request-picks-rebuild', day: '2024-05-01' }],
    ],
  ];
  for (const [what, plan, want] of cases) {
    it(`happy: ${what}`, () => {
      let n = 0;
      expect(followUpIntents(plan, events, () => ++n)).to.deep.equal(want);
    });
  }
});
