import { expect } from 'chai';
import { analyzeEventJob } from '../../../shared/app/ai/analyze';
import { renewProcessScope } from '../../../shared/platform/processScope';
import { SOCCER_MARKETS, simEvent } from '../../helpers/simEvents';
import { fakeContext, type FakeContext } from './fakeContext';

/** The analysis use case on an in-memory context: what it reads, writes, commits and publishes. */

const KICKOFF = new Date('2026-11-21T18:00:00Z'); // the fake clock stands at 12:00 that day

function upcoming(ctx: FakeContext, id: string, seed = 3): void {
  ctx.analysis.events.push(
    simEvent({ id, sportId: 1, x: [Math.log(1.5), Math.log(1.2)], home: { id: 1, name: 'Alpha' }, away: { id: 2, name: 'Beta' }, startDateTime: KICKOFF, markets: SOCCER_MARKETS, seed }),
  );
  ctx.analysis.fits.set(1, {
    window: '2026112100',
    fittedAt: new Date('2026-11-21T00:00:00Z'),
    params: {
      family: 'goals',
      dc: { teams: ['1', '2'], attack: [0.3, -0.1], defence: [-0.2, 0.1], intercept: 0.1, homeAdvantage: 0.25, rho: -0.05 },
      attackSE: [0.1, 0.1],
      defenceSE: [0.1, 0.1],
      corners: null,
      cards: null,
    },
    blendWeight: 0.4,
    gamesUsed: 300,
    bookRanking: [],
  });
}

describe('analyse orchestrator (in-memory context)', () => {
  // What this process remembers of the stores (its memo of analyses, the fits it read) starts afresh with each test's stores.
  beforeEach(renewProcessScope);

  it('happy: an upcoming event with markets and a fit is analysed: its recommendations inserted once, committed, its insight written and published', async () => {
    const ctx = fakeContext();
    upcoming(ctx, 'e1');
    const out = await analyzeEventJob(ctx, 'e1');
    if (out.status !== 'analyzed') throw new Error(`expected an analysis, got ${out.status}`);
    expect(out.picksDay).to.equal('2026-11-21');
    expect(out.recommendations).to.be.greaterThan(0);
    expect(out.inserted).to.equal(out.recommendations);
    const ids = ctx.analysis.recommendations.map((r) => r._id);
    expect(ids).to.have.length(out.recommendations);
    expect(new Set(ids).size).to.equal(ids.length);
    expect(ctx.analysis.recommendations.every((r) => r.eventId === 'e1' && r.settled === false && r.result === null && +r.createdAt === +ctx.clock.now())).to.equal(true);
    expect(ctx.analysis.committed).to.deep.equal([{ ids, event: { id: 'e1', home: 'Alpha', away: 'Beta', competition: 'Sim League', startAt: KICKOFF }, written: ids }]);
    const insight = ctx.analysis.insights.get('e1');
    expect(insight).to.include({ eventId: 'e1', status: 'upcoming', sportId: 1 });
    expect(insight?.recommendationIds).to.deep.equal(ids);
    expect(insight?.inputHash).to.be.a('string');
    expect(+(insight?.analysisTimestamp ?? 0)).to.equal(+ctx.clock.now());
    expect(ctx.analysis.writes).to.deep.equal({ insights: 1, statuses: 0, recommendations: ids.length });
    expect(ctx.analysis.published).to.deep.equal([{ eventId: 'e1', analysedAt: ctx.clock.now(), recommendationIds: ids }]);
    expect(ctx.analysis.started).to.deep.equal([]);
    expect(ctx.bumped).to.deep.equal(['ai']);
    expect(ctx.dispatched).to.deep.equal([{ kind: 'request-picks-rebuild', day: '2026-11-21' }]);
  });

  it('happy: unchanged inputs are not analysed twice (same hash: skipped, nothing written)', async () => {
    const ctx = fakeContext();
    upcoming(ctx, 'e1');
    await analyzeEventJob(ctx, 'e1');
    const writes = { ...ctx.analysis.writes };
    ctx.setNow(new Date('2026-11-21T12:05:00Z'));
    expect(await analyzeEventJob(ctx, 'e1')).to.deep.equal({ status: 'unchanged' });
    expect(ctx.analysis.writes).to.deep.equal(writes);
    expect(ctx.analysis.committed).to.have.length(1);
    // Nothing changed: the ai pages stay cached and no picks rebuild is asked for again.
    expect(ctx.bumped).to.have.length(1);
    expect(ctx.dispatched).to.have.length(1);
    expect(ctx.analysis.published).to.have.length(1);
    // Another process (or this one's retry after a restart) reads the stored hash: skipped too, the stored analysis published again.
    renewProcessScope();
    expect(await analyzeEventJob(ctx, 'e1')).to.deep.equal({ status: 'unchanged' });
    expect(ctx.analysis.writes).to.deep.equal(writes);
    expect(ctx.analysis.published).to.have.length(2);
    expect(ctx.analysis.published[1]).to.deep.equal(ctx.analysis.published[0]);
  });

  it('happy: a started event is not analysed: only its insight status follows and the read model hears it started', async () => {
    const ctx = fakeContext();
    upcoming(ctx, 'e1');
    await analyzeEventJob(ctx, 'e1');
    const recommendations = ctx.analysis.recommendations.length;
    ctx.analysis.events[0].status = 'live';
    ctx.setNow(new Date('2026-11-21T18:01:00Z'));
    expect(await analyzeEventJob(ctx, 'e1')).to.deep.equal({ status: 'started' });
    expect(ctx.analysis.insights.get('e1')?.status).to.equal('live');
    expect(ctx.analysis.writes).to.deep.include({ insights: 1, statuses: 1, recommendations });
    expect(ctx.analysis.started).to.deep.equal([{ eventId: 'e1', at: ctx.clock.now() }]);
    expect(ctx.analysis.committed).to.have.length(1);
  });

  it("happy: an event called off before its start is not analysed, and its day's picks are rebuilt", async () => {
    const ctx = fakeContext();
    upcoming(ctx, 'e1');
    ctx.analysis.events[0].status = 'cancelled';
    expect(await analyzeEventJob(ctx, 'e1')).to.deep.equal({ status: 'started', picksDay: '2026-11-21' });
    expect(ctx.analysis.recommendations).to.deep.equal([]);
    expect(ctx.analysis.started).to.have.length(1);
    expect(ctx.dispatched).to.deep.equal([{ kind: 'request-picks-rebuild', day: '2026-11-21' }]);
  });

  it('error: an event missing from the store is its outcome, nothing written or published', async () => {
    const ctx = fakeContext();
    expect(await analyzeEventJob(ctx, 'nowhere')).to.deep.equal({ status: 'missing' });
    expect(ctx.analysis.writes).to.deep.equal({ insights: 0, statuses: 0, recommendations: 0 });
    expect(ctx.analysis.published).to.deep.equal([]);
    expect(ctx.analysis.started).to.deep.equal([]);
  });

  it('error: a newer analysis already stored (a faster job on newer prices) is not overwritten', async () => {
    const ctx = fakeContext();
    upcoming(ctx, 'e1');
    const newer = { eventId: 'e1', status: 'upcoming', inputHash: 'newer-prices', analysisTimestamp: new Date('2026-11-21T12:00:01Z'), recommendationIds: ['other'] };
    ctx.analysis.insights.set('e1', { ...newer });
    const out = await analyzeEventJob(ctx, 'e1');
    expect(out.status).to.equal('analyzed');
    expect(ctx.analysis.insights.get('e1')).to.deep.equal(newer);
    expect(ctx.analysis.writes.insights).to.equal(0);
  });
});
