import { expect } from 'chai';
import { rebuildPicksForDay } from '../../../shared/app/ai/picks';
import type { PickRecommendation } from '../../../shared/domain/ai/picks';
import { fakeContext, type FakeContext } from './fakeContext';

/** A day's featured picks rebuilt on an in-memory context: what it writes, removes, keeps and commits. */

const NOW = new Date('2026-11-21T09:00:00Z');
const DAY = '2026-11-21';
const name = (en: string) => ({ en, es: en, pt: en });

function upcoming(ctx: FakeContext, id: string, kickoff: string, recs: { id: string; edge: number; confidence?: 'High' | 'Medium' | 'Low' }[]): void {
  const startDateTime = new Date(kickoff);
  ctx.picks.events.push({
    _id: id,
    status: 'upcoming',
    startDateTime,
    homeTeam: { id: 1, name: name(`${id} home`) },
    awayTeam: { id: 2, name: name(`${id} away`) },
    competition: { id: 7, name: name('League') },
    competitionId: 7,
    regionId: 3,
  });
  ctx.picks.insights.push({ _id: id, status: 'upcoming', startDateTime, recommendationIds: recs.map((r) => r.id), analysisInsight: { id }, matchSimulation: null });
  for (const r of recs) ctx.picks.recommendations.push(recommendation(r.id, id, r.edge, r.confidence ?? 'High'));
}

function recommendation(id: string, eventId: string, edge: number, confidence: 'High' | 'Medium' | 'Low'): PickRecommendation {
  return {
    _id: id,
    eventId,
    betItemId: `${eventId}-1`,
    betTypeSysname: 'SOCCER_MATCH_RESULT',
    code: '1',
    line: null,
    outcome: 'home',
    bookmaker: 'book',
    odds: 2,
    probability: 0.55,
    edgePercentage: edge,
    kellyFraction: edge / 400,
    confidence,
  };
}

describe('picks orchestrator (in-memory context)', () => {
  it("happy: the day's upcoming events give singles and parlays, written, committed once, and the ai pages refreshed", async () => {
    const ctx = fakeContext(NOW);
    upcoming(ctx, 'e1', '2026-11-21T15:00:00Z', [{ id: 'r1', edge: 9 }]);
    upcoming(ctx, 'e2', '2026-11-21T18:00:00Z', [{ id: 'r2', edge: 7 }]);
    upcoming(ctx, 'e3', '2026-11-21T20:00:00Z', [{ id: 'r3', edge: 5, confidence: 'Low' }]);
    upcoming(ctx, 'tomorrow', '2026-11-22T15:00:00Z', [{ id: 'r4', edge: 20 }]);
    const out = await rebuildPicksForDay(ctx, DAY);
    expect(out).to.deep.equal({ picks: 4, removed: 0 });
    expect(ctx.picks.picks.map((p) => [p.pickType, p.eventIds, p.featuredOrder])).to.deep.equal([
      ['single', ['e1'], 1],
      ['single', ['e2'], 2],
      ['single', ['e3'], 3],
      ['parlay', ['e1', 'e2'], 4],
    ]);
    expect(ctx.commitments.links.map((l) => l.kind)).to.deep.equal(['pick', 'pick', 'pick', 'pick']);
    expect(ctx.bumped).to.deep.equal(['ai']);
    // Each new pick announced once, its job delayed so that its first attempt finds it written.
    const announced = ctx.dispatched.filter((i) => i.kind === 'enqueue' && i.name === 'pick-created');
    expect(announced.map((i) => (i.kind === 'enqueue' ? [i.data, i.delay] : null))).to.deep.equal(ctx.picks.picks.map((p) => [{ pickId: p._id }, 1000]));

    // The same inputs again: nothing rewritten, nothing committed twice.
    const written = ctx.picks.written.length;
    expect(await rebuildPicksForDay(ctx, DAY)).to.deep.equal({ picks: 4, removed: 0 });
    expect(ctx.picks.written.length).to.equal(written);
    expect(ctx.commitments.links).to.have.length(4);
  });

  it('happy: a started pick is frozen (kept, orders go on after it); a pick no longer offered is removed while unstarted', async () => {
    const ctx = fakeContext(NOW);
    upcoming(ctx, 'e1', '2026-11-21T15:00:00Z', [{ id: 'r1', edge: 9, confidence: 'Low' }]);
    ctx.picks.picks.push(
      { _id: 'started', featuredDate: DAY, startsAt: new Date('2026-11-21T08:00:00Z'), featuredOrder: 2, pickType: 'single' },
      { _id: 'withdrawn', featuredDate: DAY, startsAt: new Date('2026-11-21T16:00:00Z'), featuredOrder: 3, pickType: 'single' },
    );
    const out = await rebuildPicksForDay(ctx, DAY);
    expect(out).to.deep.equal({ picks: 1, removed: 1 });
    expect(ctx.picks.picks.map((p) => [p._id === 'started' ? 'started' : p.pickType, p.featuredOrder])).to.deep.equal([
      ['started', 2],
      ['single', 3],
    ]);
  });

  it('happy: an event that left the upcoming state (or started) gives no pick; a day that is over rebuilds to nothing', async () => {
    const ctx = fakeContext(NOW);
    upcoming(ctx, 'e1', '2026-11-21T15:00:00Z', [{ id: 'r1', edge: 9 }]);
    ctx.picks.events[0].status = 'cancelled';
    expect(await rebuildPicksForDay(ctx, DAY)).to.deep.equal({ picks: 0, removed: 0 });
    expect(await rebuildPicksForDay(ctx, '2026-11-20')).to.deep.equal({ picks: 0, removed: 0 });
    expect(ctx.picks.written).to.deep.equal([]);
  });

  it('error: two rebuilds of one day run one after the other (the day lock), both ending with the same picks', async () => {
    const ctx = fakeContext(NOW);
    upcoming(ctx, 'e1', '2026-11-21T15:00:00Z', [{ id: 'r1', edge: 9 }]);
    const [a, b] = await Promise.all([rebuildPicksForDay(ctx, DAY), rebuildPicksForDay(ctx, DAY)]);
    expect(a).to.deep.equal(b);
    expect(ctx.picks.waited).to.be.greaterThan(0);
    expect(ctx.picks.picks).to.have.length(1);
  });

  it('happy: the read model still names an event called off or moved to another day: the next best takes its place; only the few drawn from are read', async () => {
    const ctx = fakeContext(NOW);
    for (let i = 0; i < 30; i++) upcoming(ctx, `e${i}`, `2026-11-21T${String(10 + (i % 12)).padStart(2, '0')}:00:00Z`, [{ id: `r${i}`, edge: 50 - i }]);
    // The two best: one cancelled, one moved to tomorrow, while their insights still say upcoming today.
    ctx.picks.events.find((e) => e._id === 'e0')!.status = 'cancelled';
    ctx.picks.events.find((e) => e._id === 'e1')!.startDateTime = new Date('2026-11-22T12:00:00Z');
    await rebuildPicksForDay(ctx, DAY);
    expect(ctx.picks.picks.filter((p) => p.pickType === 'single').map((p) => p.eventIds)).to.deep.equal([['e2'], ['e3'], ['e4']]);
    expect(ctx.picks.lookups.flat().length, JSON.stringify(ctx.picks.lookups)).to.be.at.most(9);
  });
});
