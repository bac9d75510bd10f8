import { expect } from 'chai';
import { parseSoakArgs } from '../../../scripts/soak/args';
import {
  chaosPlan,
  checkCaughtUp,
  checkGradedOnce,
  checkHealth,
  reasonCounts,
  checkNotOverServed,
  checkRecharges,
  checkStatuses,
  checkStuckJobs,
  checkUniqueRefs,
  FAULT_KINDS,
  formatResult,
  recoveries,
  type Fault,
  type HealthSample,
} from '../../../scripts/soak/checks';
import { formatScale, instances, parseScale } from '../../../scripts/soak/scale';

describe('npm run soak: arguments and npm start --scale', () => {
  it('defaults to 3 minutes, no chaos, two of every process', () => {
    const o = parseSoakArgs([]);
    expect(o).to.deep.include({ minutes: 3, chaos: false, seed: 1, concurrency: 12, rps: 40, recoveryS: 60, gapS: { min: 20, max: 40 } });
    expect(formatScale(o.scale)).to.equal('web=2,ingest=2,ai=2,settlement=2,scheduler=2');
    const a = parseSoakArgs(['--minutes', '0.5', '--chaos', '--seed', '7', '--concurrency', '20', '--rps', '0', '--scale', 'web=3', '--recovery-s', '90', '--gap-s', '5,10']);
    expect(a).to.deep.include({ minutes: 0.5, chaos: true, seed: 7, concurrency: 20, rps: 0, recoveryS: 90, gapS: { min: 5, max: 10 } });
    expect(formatScale(a.scale)).to.equal('web=3,ingest=1,ai=1,settlement=1,scheduler=1');
  });

  const bad: [string[], RegExp][] = [
    [['--minutes', '0'], /--minutes must be a number from 0\.5/],
    [['--minutes', 'x'], /--minutes must be a number .*got "x"/],
    [['--seed', '1.5'], /--seed must be a whole number/],
    [['--concurrency', '0'], /--concurrency must be a whole number from 1 to 64/],
    [['--gap-s', '10,5'], /--gap-s must be min,max/],
    [['--rps', 'x'], /--rps must be a number from 0 to 10000/],
    [['--scale', 'web=0'], /--scale: web=0 must be from 1 to 16/],
    [['--scale', 'db=2'], /--scale: unknown process "db"/],
    [['--nope'], /unknown option '--nope'/],
  ];
  for (const [argv, message] of bad) it(`names the bad argument: ${argv.join(' ')}`, () => expect(() => parseSoakArgs(argv)).to.throw(message));

  it('parses --scale and lays out the copies, web on consecutive ports', () => {
    expect(() => parseScale('web=2,web=3')).to.throw(/"web" is named twice/);
    expect(() => parseScale('web:2')).to.throw(/"web:2" is not name=count/);
    expect(() => parseScale('')).to.throw(/--scale needs name=count pairs/);
    const all = instances(parseScale('web=2,scheduler=2'), 3000);
    expect(all.map((i) => [i.id, i.port])).to.deep.equal([
      ['web.1', 3000],
      ['web.2', 3001],
      ['ingest', undefined],
      ['ai', undefined],
      ['settlement', undefined],
      ['scheduler.1', undefined],
      ['scheduler.2', undefined],
    ]);
  });
});

describe('npm run soak: the chaos plan and the end checks', () => {
  it('plans every fault kind before repeating one, seeded, within the time', () => {
    const plan = chaosPlan(3, 600_000, { min: 10, max: 20 }, () => 5000);
    expect(plan.slice(0, 4).map((p) => p.kind)).to.have.members([...FAULT_KINDS]);
    expect(chaosPlan(3, 600_000, { min: 10, max: 20 }, () => 5000)).to.deep.equal(plan);
    expect(plan.reduce((n, p) => n + p.afterMs + 5000, 0)).to.be.at.most(600_000);
    expect(plan.every((p) => p.afterMs >= 10_000 && p.afterMs <= 20_000)).to.equal(true);
    expect(chaosPlan(3, 1000, { min: 10, max: 20 }, () => 5000)).to.deep.equal([]);
  });

  const redis: Fault = { kind: 'redis-restart', target: 'redis-server', start: 10_000, end: 16_000 };
  const kill: Fault = { kind: 'kill-worker', target: 'ai pid 1', start: 40_000, end: 40_000 };

  it('statuses: a 503 only during an outage or its grace, no other 5xx', () => {
    const ok = checkStatuses(
      [
        { at: 1000, status: 200 },
        { at: 12_000, status: 503 },
        { at: 20_000, status: 503 },
        { at: 30_000, status: 402 },
        { at: 31_000, status: 0 },
      ],
      [redis, kill],
      5000,
    );
    expect(ok.pass).to.equal(true);
    expect(ok.figure).to.equal("5 answers: 1 2xx/3xx, 1 4xx, 2 503 (0 outside a server's outage + 5 s), 0 other 5xx, 1 without an answer");
    expect(checkStatuses([{ at: 50_000, status: 503 }], [redis, kill], 5000).pass).to.equal(false);
    // Sent 8 s before Redis died, answered during the outage: the outage's 503.
    expect(checkStatuses([{ at: 2000, doneAt: 11_000, status: 503 }], [redis], 5000).pass).to.equal(true);
    // Sent and answered before it: a stray.
    expect(checkStatuses([{ at: 2000, doneAt: 9000, status: 503 }], [redis], 5000).pass).to.equal(false);
    const five = checkStatuses([{ at: 12_000, status: 500 }], [redis], 5000);
    expect([five.pass, five.figure]).to.deep.equal([false, "1 answers: 0 2xx/3xx, 0 4xx, 0 503 (0 outside a server's outage + 5 s), 1 other 5xx (1x500), 0 without an answer"]);
  });

  const sample = (at: number, http: number, status: HealthSample['status'], staleMs: number | null): HealthSample => ({ at, http, status, staleMs });

  it('health and ingest: degraded during an outage, ok and caught up within the time after each fault', () => {
    const samples = [sample(5000, 200, 'ok', 1000), sample(12_000, 503, 'degraded', null), sample(20_000, 200, 'degraded', 9000), sample(26_000, 200, 'ok', 2000), sample(42_000, 200, 'ok', 1500)];
    const rs = recoveries([redis, kill], samples, 6000);
    expect(rs.map((r) => [r.degradedSeen, r.okAfterMs, r.caughtUpAfterMs])).to.deep.equal([
      [true, 10_000, 10_000],
      [false, 2000, 2000],
    ]);
    expect(checkHealth(rs, samples, 15_000, 0).pass).to.equal(true);
    expect(checkHealth(rs, samples, 5000, 0).pass).to.equal(false);
    expect(checkCaughtUp(rs, samples, 6000, 15_000).pass).to.equal(true);
    // A server outage that health never saw fails.
    const unseen = recoveries([redis], [sample(12_000, 200, 'ok', 1000)], 6000);
    expect(checkHealth(unseen, [], 60_000, 0).pass).to.equal(false);
    // Without faults: the last sample must be fresh.
    expect(checkCaughtUp([], [sample(1, 200, 'ok', 9000)], 6000, 1).pass).to.equal(false);
    expect(checkHealth([], samples, 1, 0).figure).to.equal('no faults; 3 of 5 samples ok');
  });

  it('health: the degraded reasons are counted with their figures blanked, most frequent first', () => {
    const samples: HealthSample[] = [
      { ...sample(1000, 200, 'degraded', 7000), reasons: ['an analysis has waited 12 s', 'provider simulated last polled successfully 7 s ago'] },
      { ...sample(2000, 200, 'degraded', 8000), reasons: ['an analysis has waited 14 s'] },
      { ...sample(3000, 200, 'ok', 1000), reasons: [] },
    ];
    expect(reasonCounts(samples)).to.deep.equal(['degraded in 2 of 3 samples: an analysis has waited # s', 'degraded in 1 of 3 samples: provider simulated last polled successfully # s ago']);
    expect(checkHealth([], samples, 5000, 0).details).to.deep.equal(reasonCounts(samples));
  });

  it('graded once, unique refs, served within what was paid', () => {
    expect(
      checkGradedOnce('recommendation', [
        { settled: true, settlementWrites: 1, corrections: 0 },
        { settled: true, settlementWrites: 2, corrections: 1 },
        { settled: false, settlementWrites: 0, corrections: 0 },
      ]).pass,
    ).to.equal(true);
    const twice = checkGradedOnce('recommendation', [{ settled: true, settlementWrites: 2, corrections: 0 }]);
    expect([twice.pass, twice.figure]).to.deep.equal([false, '1 of 1 settled; 1 with settlementWrites != 1 + corrections (1 written twice)']);
    expect(checkGradedOnce('pick', [{ settled: false, settlementWrites: 1, corrections: 0 }]).pass).to.equal(false);
    const refs = checkUniqueRefs(['a', 'b', 'a']);
    expect([refs.pass, refs.figure, refs.details]).to.deep.equal([false, '3 entries, 2 refs, 1 duplicated', ['a: 2 entries']]);
    expect(checkNotOverServed([{ name: 'small', servedCredits: 500, paidCredits: 500, ledgerDebited: 500, refusedForCredits: 3 }]).pass).to.equal(true);
    expect(checkNotOverServed([{ name: 'small', servedCredits: 501, paidCredits: 500, ledgerDebited: 500, refusedForCredits: 0 }]).pass).to.equal(false);
  });

  it('recharges: at most one success per low-balance window, each credited once', () => {
    const charges = [
      { status: 'succeeded', idempotencyKey: 'recharge-acct_a-v1s0-a1' },
      { status: 'declined', idempotencyKey: 'recharge-acct_b-v1s0-a1' },
      { status: 'succeeded', idempotencyKey: 'recharge-acct_b-v1s0-a2' },
      { status: 'succeeded', idempotencyKey: 'recharge-acct_a-v1s2-a1' },
    ];
    expect(checkRecharges(charges, 3).pass).to.equal(true);
    expect(checkRecharges(charges, 2).pass).to.equal(false);
    const twice = checkRecharges([...charges, { status: 'succeeded', idempotencyKey: 'recharge-acct_a-v1s0-a2' }], 4);
    expect([twice.pass, twice.figure]).to.deep.equal([false, '5 gateway charges (4 succeeded, 1 declined) over 3 windows; 1 windows charged twice; 4 recharge credits in the ledger']);
  });

  it('stuck jobs fail the check; failed jobs are listed with their reasons', () => {
    const r = checkStuckJobs([
      { queue: 'ai', id: 'a1', name: 'analyze-event', state: 'waiting', ageMs: 200_000 },
      { queue: 'settlement', id: 's1', name: 'settle-event', state: 'failed', ageMs: 1000, failedReason: 'boom' },
    ]);
    expect(r.pass).to.equal(true);
    expect(formatResult(r)).to.equal('PASS  no job left stuck: 0 stuck (active > 2 min, delayed > 2 min past due, waiting > 5 min); 1 failed\n        failed settlement/settle-event s1: boom');
    expect(checkStuckJobs([{ queue: 'settlement', id: 's2', name: 'settle-event', state: 'active', ageMs: 121_000 }]).pass).to.equal(false);
  });
});
