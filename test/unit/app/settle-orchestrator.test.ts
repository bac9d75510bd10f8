import { expect } from 'chai';
import { SettlementConflictError, settleEvents } from '../../../shared/app/settlement/settleEvent';
import { fakeContext, type FakeContext } from './fakeContext';

/** The settlement use case on an in-memory context: what it reads, writes, announces and marks. */

const KICKOFF = new Date('2026-11-21T15:00:00Z');

function ended(ctx: FakeContext, id: string, stats: { homeGoals: number; awayGoals: number }, resultVersion = 0): void {
  ctx.settlement.events.push({ _id: id, status: 'completed', startedAt: KICKOFF, endedAt: new Date(KICKOFF.getTime() + 2 * 3600_000), resultVersion, stats });
}

function bet(ctx: FakeContext, id: string, eventId: string, code: '1' | 'X' | '2', odds = 2): void {
  ctx.settlement.recommendations.push({
    _id: id,
    eventId,
    eventStartAt: KICKOFF,
    betItemId: `${eventId}-SOCCER_MATCH_RESULT-${code}`,
    betTypeSysname: 'SOCCER_MATCH_RESULT',
    code,
    odds,
    confidence: 'High',
    settled: false,
    settledVersion: null,
  });
}

describe('settle orchestrator (in-memory context)', () => {
  it('happy: grades each bet of an ended event once, then refreshes its day, commits, announces and marks it', async () => {
    const ctx = fakeContext();
    ended(ctx, 'e1', { homeGoals: 2, awayGoals: 1 });
    bet(ctx, 'r-home', 'e1', '1', 2.1);
    bet(ctx, 'r-away', 'e1', '2', 3.4);
    const out = (await settleEvents(ctx, ['e1'])).get('e1');
    expect(out).to.include({ status: 'settled', resultVersion: 0 });
    expect(out?.recommendations).to.deep.equal({ settled: 2, corrected: 0, confirmed: 0, errors: 0 });
    const byId = new Map(ctx.settlement.recommendations.map((r) => [r._id, r]));
    expect(byId.get('r-home')).to.include({ settled: true, result: 'won', settledVersion: 0, settlementWrites: 1 });
    expect(byId.get('r-away')).to.include({ settled: true, result: 'lost', settledVersion: 0, settlementWrites: 1 });
    expect(ctx.settlement.rollupDays).to.deep.equal([['2026-11-21']]);
    expect(ctx.settlement.committed).to.deep.equal([{ recommendationEventIds: ['e1'], pickEventIds: ['e1'] }]);
    expect(ctx.settlement.changes.map((c) => [c.eventId, c.kind])).to.deep.equal([['e1', 'settled']]);
    expect(ctx.settlement.markers.get('e1')?.version).to.equal(0);
    expect(ctx.settlement.firstSettlements).to.deep.equal(['e1']);
    // The list's read model hears of each bet as stored after its grading.
    expect(ctx.settlement.published.map((run) => run.map((r) => [r._id, r.settled, r.result, r.settlementWrites]))).to.deep.equal([
      [
        ['r-home', true, 'won', 1],
        ['r-away', true, 'lost', 1],
      ],
    ]);
  });

  it('happy: a re-run (a retried job) writes nothing twice', async () => {
    const ctx = fakeContext();
    ended(ctx, 'e1', { homeGoals: 0, awayGoals: 0 });
    bet(ctx, 'r-draw', 'e1', 'X');
    await settleEvents(ctx, ['e1']);
    const again = (await settleEvents(ctx, ['e1'])).get('e1');
    expect(again?.recommendations).to.deep.equal({ settled: 0, corrected: 0, confirmed: 0, errors: 0 });
    expect(ctx.settlement.recommendations[0]).to.include({ result: 'won', settlementWrites: 1 });
    expect(ctx.settlement.firstSettlements).to.deep.equal(['e1']); // the second marking is not a first settlement
    // Published again as stored: a run that crashed between its write and its publish is made good by the retry.
    expect(ctx.settlement.published.map((run) => run.map((r) => [r._id, r.result, r.settlementWrites]))).to.deep.equal([[['r-draw', 'won', 1]], [['r-draw', 'won', 1]]]);
  });

  it('happy: a corrected result (a new version) re-grades the settled bet and keeps its history', async () => {
    const ctx = fakeContext();
    ended(ctx, 'e1', { homeGoals: 1, awayGoals: 0 });
    bet(ctx, 'r-home', 'e1', '1');
    await settleEvents(ctx, ['e1']);
    Object.assign(ctx.settlement.events[0], { resultVersion: 1, stats: { homeGoals: 1, awayGoals: 1 } });
    const out = (await settleEvents(ctx, ['e1'])).get('e1');
    expect(out?.recommendations.corrected).to.equal(1);
    expect(ctx.settlement.recommendations[0]).to.include({ result: 'lost', settledVersion: 1, settlementWrites: 2 });
    expect(ctx.settlement.recommendations[0].corrections).to.have.length(1);
    expect(ctx.settlement.markers.get('e1')?.version).to.equal(1);
  });

  it('happy: an event not ended yet is left alone (no write, no marker, nothing announced)', async () => {
    const ctx = fakeContext();
    ctx.settlement.events.push({ _id: 'e2', status: 'live', startedAt: KICKOFF, resultVersion: 0 });
    bet(ctx, 'r1', 'e2', '1');
    const out = (await settleEvents(ctx, ['e2', 'nowhere'])).get('e2');
    expect(out?.status).to.equal('pending');
    expect((await settleEvents(ctx, ['nowhere'])).get('nowhere')?.status).to.equal('missing');
    expect(ctx.settlement.recommendations[0].settled).to.equal(false);
    expect(ctx.settlement.markers.size).to.equal(0);
    expect(ctx.settlement.changes).to.deep.equal([]);
  });

  it('error: a document another writer changed between read and write is read again, never written blind', async () => {
    const ctx = fakeContext();
    ended(ctx, 'e1', { homeGoals: 3, awayGoals: 0 });
    bet(ctx, 'r-home', 'e1', '1');
    let interfered = false;
    ctx.settlement.beforeRecommendationWrite = () => {
      if (interfered) return;
      interfered = true;
      ctx.settlement.recommendations[0].settledVersion = -5; // what this pass read is no longer there
    };
    const out = (await settleEvents(ctx, ['e1'])).get('e1');
    expect(out?.recommendations.settled).to.equal(1);
    expect(ctx.settlement.recommendations[0]).to.include({ result: 'won', settlementWrites: 1 });
  });

  it('error: documents that keep changing fail the job (retried later) and mark nothing', async () => {
    const ctx = fakeContext();
    ended(ctx, 'e1', { homeGoals: 3, awayGoals: 0 });
    bet(ctx, 'r-home', 'e1', '1');
    let n = 0;
    ctx.settlement.beforeRecommendationWrite = () => void (ctx.settlement.recommendations[0].settledVersion = -100 - n++);
    let err: unknown;
    await settleEvents(ctx, ['e1']).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(SettlementConflictError);
    expect(ctx.settlement.markers.size).to.equal(0);
  });
});
