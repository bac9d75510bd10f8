import { expect } from 'chai';
import { checkPerformance } from '../../../shared/app/settlement/check';
import { CorrectionConflictError, CorrectionInputError, correctResult } from '../../../shared/app/settlement/correct';
import { refreshRollupDays, RollupContentionError } from '../../../shared/app/settlement/rollups';
import { settleEvents } from '../../../shared/app/settlement/settleEvent';
import { sweepUnsettled } from '../../../shared/app/settlement/sweep';
import type { SettledBetRow, StoredRollupRow } from '../../../shared/app/settlement/ports';
import { emptyCounters } from '../../../shared/domain/grading';
import { fakeContext, type FakeContext } from './fakeContext';

/** Settlement's upkeep on an in-memory context: the sweep, the rollups' compare-and-set, the check, and an operator's correction. */

const NOW = new Date('2026-11-21T12:00:00Z');
const KICKOFF = new Date('2026-11-21T09:00:00Z');

function endedWithOpenBet(ctx: FakeContext, id: string, o: { endedAt?: Date; resultVersion?: number } = {}): void {
  ctx.settlement.events.push({
    _id: id,
    status: 'completed',
    startedAt: KICKOFF,
    endedAt: o.endedAt ?? new Date('2026-11-21T11:00:00Z'),
    resultVersion: o.resultVersion ?? 0,
    stats: { homeGoals: 1, awayGoals: 0 },
  });
  ctx.settlement.recommendations.push({
    _id: `${id}-r`,
    eventId: id,
    eventStartAt: KICKOFF,
    betTypeSysname: 'SOCCER_MATCH_RESULT',
    code: '1',
    odds: 2,
    confidence: 'High',
    settled: false,
    settledVersion: null,
  });
}

/** A stored High rollup of the day, as another writer left it. */
const stored = (rev: number, total: number): StoredRollupRow => ({ ...emptyCounters(), _id: '2026-11-21|High', day: '2026-11-21', confidence: 'High', total, rev });

const bet = (id: string, result: 'won' | 'lost', o: Partial<SettledBetRow> = {}): SettledBetRow => ({
  _id: id,
  confidence: 'High',
  result,
  resultDetail: result,
  returnPerUnit: result === 'won' ? 2 : 0,
  edgePercentage: 5,
  eventStartAt: KICKOFF,
  ...o,
});

describe('settlement sweep (in-memory context)', () => {
  it('happy: an ended event with open bets, and a recent one whose marker is behind its version, are re-enqueued; a settled one is not', async () => {
    const ctx = fakeContext(NOW, { SETTLEMENT_DELAY_MS: '60000' });
    endedWithOpenBet(ctx, 'open', { endedAt: new Date('2026-11-21T11:59:30Z') });
    ctx.settlement.events.push({ _id: 'behind', status: 'completed', startedAt: KICKOFF, endedAt: new Date('2026-11-21T10:00:00Z'), resultVersion: 2 });
    ctx.settlement.markers.set('behind', { version: 1, at: NOW });
    ctx.settlement.updatedAt.set('behind', new Date('2026-11-21T11:00:00Z'));
    ctx.settlement.events.push({ _id: 'done', status: 'completed', startedAt: KICKOFF, resultVersion: 0 });
    ctx.settlement.markers.set('done', { version: 0, at: NOW });
    ctx.settlement.updatedAt.set('done', NOW);
    expect(await sweepUnsettled(ctx)).to.deep.equal({ enqueued: 2, candidates: 2 });
    // The delay runs from the event's end, the configured minimum (SETTLEMENT_DELAY_MS) after it.
    expect(ctx.dispatched).to.deep.equal([
      { kind: 'enqueue', queue: 'settlement', name: 'settle-event', data: { eventId: 'open', resultVersion: 0 }, delay: 30_000, existing: 'replace-finished' },
      { kind: 'enqueue', queue: 'settlement', name: 'settle-event', data: { eventId: 'behind', resultVersion: 2 }, delay: 0, existing: 'replace-finished' },
    ]);
  });

  it('happy: nothing left behind: nothing enqueued; a live event with open bets is not settled early', async () => {
    const ctx = fakeContext(NOW);
    endedWithOpenBet(ctx, 'live');
    ctx.settlement.events[0].status = 'live';
    expect(await sweepUnsettled(ctx)).to.deep.equal({ enqueued: 0, candidates: 0 });
    expect(ctx.dispatched).to.deep.equal([]);
  });
});

describe('performance rollups (in-memory context)', () => {
  it('happy: a refresh recomputes the day from its bets and writes only what differs; the check then finds them equal', async () => {
    const ctx = fakeContext(NOW);
    ctx.rollups.bets.push(bet('a', 'won'), bet('b', 'lost'), bet('c', 'won', { confidence: 'Low' }));
    await refreshRollupDays(ctx, ['2026-11-21', '2026-11-21']);
    const high = ctx.rollups.rollups.find((r) => r._id === '2026-11-21|High');
    expect(high).to.include({ total: 2, wins: 1, losses: 1, rev: 1 });
    expect(ctx.rollups.rollups.map((r) => r._id).sort()).to.deep.equal(['2026-11-21|High', '2026-11-21|Low']);
    const writes = ctx.rollups.writes;
    await refreshRollupDays(ctx, ['2026-11-21']);
    expect(ctx.rollups.writes).to.equal(writes);
    expect(await checkPerformance(ctx)).to.include({ equal: true, settledRecommendations: 3, storedRollups: 2 });
  });

  it('happy: a refresh that loses the race to another writer reads again and writes over the new revision', async () => {
    const ctx = fakeContext(NOW);
    ctx.rollups.bets.push(bet('a', 'won'));
    let raced = false;
    ctx.rollups.beforeWrite = () => {
      if (raced) return;
      raced = true;
      ctx.rollups.bets.push(bet('late', 'lost'));
      ctx.rollups.rollups.push(stored(1, 1));
    };
    await refreshRollupDays(ctx, ['2026-11-21']);
    expect(ctx.rollups.rollups.find((r) => r._id === '2026-11-21|High')).to.include({ total: 2, losses: 1, rev: 2 });
  });

  it('error: a bet whose result fields are not a grading is left out and reported; a rollup that differs is fixed on asking', async () => {
    const ctx = fakeContext(NOW);
    ctx.rollups.bets.push(bet('a', 'won'), bet('bad', 'won', { resultDetail: null }));
    const check = await checkPerformance(ctx, { fix: true });
    expect(check.invalidBets).to.deep.equal([{ id: 'bad', problem: 'result won does not match resultDetail null' }]);
    expect(check.fixed?.days).to.deep.equal(['2026-11-21']);
    expect(ctx.rollups.rollups.find((r) => r._id === '2026-11-21|High')).to.include({ total: 1, wins: 1 });
  });

  it('error: rollups that keep changing give up with a contention error', async () => {
    const ctx = fakeContext(NOW);
    ctx.rollups.bets.push(bet('a', 'won'));
    let rev = 10;
    ctx.rollups.beforeWrite = () => void (ctx.rollups.rollups = [stored(rev++, 9)]);
    let err: unknown;
    await refreshRollupDays(ctx, ['2026-11-21']).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(RollupContentionError);
  });

  it('happy: a settled batch refreshes its days and the ai pages once', async () => {
    const ctx = fakeContext(NOW);
    endedWithOpenBet(ctx, 'e1');
    await settleEvents(ctx, ['e1']);
    expect(ctx.settlement.rollupDays).to.deep.equal([['2026-11-21']]);
    expect(ctx.bumped).to.deep.equal(['ai']);
  });
});

describe('result correction (in-memory context)', () => {
  function endedEvent(ctx: FakeContext, o: { stats?: Record<string, number | null> | null; resultVersion?: number; settledVersion?: number | null; live?: boolean } = {}): void {
    ctx.corrections.events.push({
      _id: 'e1',
      dataSource: 'simulated',
      status: 'completed',
      startedAt: KICKOFF,
      resultVersion: o.resultVersion ?? 0,
      settledVersion: 'settledVersion' in o ? o.settledVersion : 0,
      stats: o.stats === undefined ? { homeGoals: 1, awayGoals: 0 } : o.stats,
    });
    if (o.live !== false) ctx.corrections.liveData.push({ _id: 'e1', eventId: 'e1', homeGoals: 1, awayGoals: 0 });
  }

  it('happy: changed counts go to the live data and the event, the version moves up, the change is announced and its settle job queued', async () => {
    const ctx = fakeContext(NOW);
    endedEvent(ctx);
    ctx.ingest.memory.set('simulated', new Map());
    const out = await correctResult(ctx, { eventId: 'e1', stats: { homeGoals: 2 } });
    expect(out).to.deep.include({ changed: true, previousVersion: 0, resultVersion: 1, jobId: 'settle-e1-v1' });
    expect(out.changes).to.deep.equal([{ field: 'homeGoals', from: 1, to: 2 }]);
    expect(ctx.corrections.liveData[0].homeGoals).to.equal(2);
    expect(ctx.corrections.events[0]).to.deep.include({ resultVersion: 1, stats: { homeGoals: 2, awayGoals: 0 } });
    expect(ctx.corrections.events[0].resultOverride).to.deep.equal({ at: NOW, resultVersion: 1, fields: ['homeGoals'] });
    expect(ctx.corrections.changes.map((c) => [c.eventId, c.kind])).to.deep.equal([['e1', 'result']]);
    // Every ingest worker reads the corrected event back from the store, and the re-grading starts at once.
    expect(ctx.ingest.memory.has('simulated')).to.equal(false);
    expect(ctx.dispatched).to.deep.equal([{ kind: 'enqueue', queue: 'settlement', name: 'settle-event', data: { eventId: 'e1', resultVersion: 1 }, delay: 0 }]);
  });

  it('happy: an event without stored stats gets them whole (the rest unknown, phase FT); a void is a change of its own', async () => {
    const ctx = fakeContext(NOW);
    endedEvent(ctx, { stats: null, live: false });
    const out = await correctResult(ctx, { eventId: 'e1', stats: { homeGoals: 0, awayGoals: 0 }, voided: true });
    expect(out.changes.map((c) => c.field)).to.deep.equal(['homeGoals', 'awayGoals', 'voided']);
    expect(ctx.corrections.events[0]).to.deep.include({ voided: true });
    expect(ctx.corrections.events[0].stats).to.include({ homeGoals: 0, awayGoals: 0, homeCorners: null, phase: 'FT' });
  });

  it('happy: nothing new changes nothing; a version never settled (a run that died before enqueueing) is queued again', async () => {
    const ctx = fakeContext(NOW);
    endedEvent(ctx, { settledVersion: null });
    const out = await correctResult(ctx, { eventId: 'e1', stats: { homeGoals: 1 } });
    expect(out).to.deep.include({ changed: false, resultVersion: 0, jobId: 'settle-e1-v0' });
    expect(ctx.corrections.changes).to.deep.equal([]);
    const settled = fakeContext(NOW);
    endedEvent(settled);
    expect((await correctResult(settled, { eventId: 'e1', stats: { homeGoals: 1 } })).jobId).to.equal(null);
    expect(settled.dispatched).to.deep.equal([]);
  });

  it('error: an unknown or unfinished event is refused; a version that moved on while correcting is a conflict; so is a correction already running', async () => {
    const ctx = fakeContext(NOW);
    await correctResult(ctx, { eventId: 'nope', stats: { homeGoals: 1 } }).then(
      () => expect.fail('corrected an unknown event'),
      (e: unknown) => expect(e).to.be.instanceOf(CorrectionInputError),
    );
    endedEvent(ctx);
    ctx.corrections.events[0].status = 'live';
    await correctResult(ctx, { eventId: 'e1', stats: { homeGoals: 1 } }).then(
      () => expect.fail('corrected a live event'),
      (e: unknown) => expect(String(e)).to.match(/has not ended/),
    );
    ctx.corrections.events[0].status = 'completed';
    ctx.corrections.beforeEventWrite = () => void (ctx.corrections.events[0].resultVersion = 7);
    await correctResult(ctx, { eventId: 'e1', stats: { homeGoals: 3 } }).then(
      () => expect.fail('wrote over a version that moved on'),
      (e: unknown) => expect(e).to.be.instanceOf(CorrectionConflictError),
    );
    ctx.corrections.locks.add('e1');
    await correctResult(ctx, { eventId: 'e1', stats: { homeGoals: 4 } }).then(
      () => expect.fail('ran beside another correction'),
      (e: unknown) => expect(String(e)).to.match(/another correction of this event is running/),
    );
    expect(ctx.dispatched).to.deep.equal([]);
  });
});
