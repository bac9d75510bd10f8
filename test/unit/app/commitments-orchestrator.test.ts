import { expect } from 'chai';
import { appendCommitments } from '../../../shared/app/commitments/append';
import { commitRecommendations, commitSettlements } from '../../../shared/app/commitments/commit';
import { publishChainHead } from '../../../shared/app/commitments/publish';
import { chainPage, proofOf, publishedHeads } from '../../../shared/app/commitments/read';
import { loadTrackRecordBets, trackRecordReport } from '../../../shared/app/trackRecord/load';
import { buildLinks, verifyLinks, verifyProof, type Commitment } from '../../../shared/domain/commitments/chain';
import { canonicalize } from '../../../shared/domain/commitments/canonical';
import type { RecommendationForCommit } from '../../../shared/domain/commitments/records';
import { fakeContext } from './fakeContext';

/** The commitments chain and the track record on an in-memory context: what is linked, in what order, and what is served. */

const record = (id: string): Commitment => ({ kind: 'recommendation', recordId: id, record: canonicalize({ id }) });
const rec = (id: string): RecommendationForCommit => ({
  _id: id,
  sportId: 1,
  betTypeSysname: 'SOCCER_MATCH_RESULT',
  line: null,
  code: '1',
  outcome: 'home',
  bookmaker: 'book',
  odds: 2,
  probability: 0.55,
  fairOdds: 1.8,
  confidence: 'High',
  edgePercentage: 10,
  kellyFraction: 0.05,
  createdAt: new Date('2026-11-21T12:00:00Z'),
});
const EVENT = { id: 'e1', home: 'Home FC', away: 'Away FC', competition: 'League', startAt: new Date('2026-11-22T15:00:00Z') };

describe('commitments orchestrator (in-memory context)', () => {
  it('happy: appends after the head, each record once, and the links recompute', async () => {
    const ctx = fakeContext();
    expect(await appendCommitments(ctx, [record('a'), record('b'), record('a')])).to.equal(2);
    expect(await appendCommitments(ctx, [record('b'), record('c')])).to.equal(1);
    expect(ctx.commitments.links.map((l) => [l.seq, l.recordId])).to.deep.equal([
      [0, 'a'],
      [1, 'b'],
      [2, 'c'],
    ]);
    expect(verifyLinks(ctx.commitments.links).ok).to.equal(true);
    expect(ctx.commitments.links[0].at).to.deep.equal(ctx.clock.now());
  });

  it('happy: a writer that loses the race for a position re-reads the head and links after the winner', async () => {
    const ctx = fakeContext();
    await appendCommitments(ctx, [record('a')]);
    let raced = false;
    ctx.commitments.beforeInsert = () => {
      if (raced) return;
      raced = true;
      // Another process takes position 1 between this writer's read of the head and its insert.
      const [other] = buildLinks({ hash: ctx.commitments.links[0].hash, length: 1 }, [record('other')]);
      ctx.commitments.links.push({ ...other, at: ctx.clock.now() });
    };
    expect(await appendCommitments(ctx, [record('mine')])).to.equal(1);
    expect(ctx.commitments.links.map((l) => l.recordId)).to.deep.equal(['a', 'other', 'mine']);
    expect(verifyLinks(ctx.commitments.links).ok).to.equal(true);
  });

  it('happy: recommendations are committed as stored, in the order asked; one neither written nor stored is left out', async () => {
    const ctx = fakeContext();
    ctx.commitments.recommendations.push(rec('r2'));
    const added = await commitRecommendations(ctx, ['r1', 'r2', 'r3'], EVENT, [rec('r1')]);
    expect(added).to.equal(2);
    expect(ctx.commitments.links.map((l) => l.recordId)).to.deep.equal(['r1', 'r2']);
    expect(JSON.parse(ctx.commitments.links[0].record)).to.deep.include({
      id: 'r1',
      event: { id: 'e1', home: 'Home FC', away: 'Away FC', competition: 'League', startAt: '2026-11-22T15:00:00.000Z' },
    });
    expect(await commitRecommendations(ctx, ['r1', 'r2'], EVENT)).to.equal(0);
  });

  it('happy: settlements are linked per bet and result version, recommendations before picks, each by id', async () => {
    const ctx = fakeContext();
    ctx.commitments.settledRecommendations.push({ _id: 'r2', eventId: 'e1', result: 'won', settledVersion: 0 }, { _id: 'r1', eventId: 'e1', result: 'lost', settledVersion: 1 });
    ctx.commitments.settledPicks.push({ _id: 'p1', eventIds: ['e1', 'e9'], result: 'lost', settledVersion: 0 });
    expect(await commitSettlements(ctx, ['e1'], ['e1'])).to.equal(3);
    expect(ctx.commitments.links.map((l) => `${l.kind}:${l.recordId}`)).to.deep.equal(['recommendation-settlement:r1@v1', 'recommendation-settlement:r2@v0', 'pick-settlement:p1@v0']);
    expect(await commitSettlements(ctx, ['e1'], ['e1'])).to.equal(0);
  });

  it('happy: the head is published once per hour, and served newest first', async () => {
    const ctx = fakeContext();
    await appendCommitments(ctx, [record('a'), record('b')]);
    const first = await publishChainHead(ctx, '2026112112');
    expect(first).to.include({ hour: '2026112112', length: 2, published: true });
    expect((await publishChainHead(ctx, '2026112112')).published).to.equal(false);
    ctx.setNow(new Date('2026-11-21T13:00:00Z'));
    await appendCommitments(ctx, [record('c')]);
    await publishChainHead(ctx, '2026112113');
    const served = await publishedHeads(ctx, 5);
    expect(served.heads.map((h) => [h.hour, h.length])).to.deep.equal([
      ['2026112113', 3],
      ['2026112112', 2],
    ]);
    expect(served.head.length).to.equal(3);
  });

  it('happy: a proof recomputes to the current head, or to a shorter head asked for; pages say where to go on', async () => {
    const ctx = fakeContext();
    await appendCommitments(ctx, [record('r1'), record('x'), record('y'), record('z')]);
    const p = await proofOf(ctx, 'r1');
    if (p.kind !== 'proof') throw new Error(`expected a proof, got ${p.kind}`);
    expect(verifyProof({ link: p.proof.link, path: p.proof.path, head: p.proof.head }).ok).to.equal(true);
    expect(p.proof.head.length).to.equal(4);
    const short = await proofOf(ctx, 'r1', { to: 2, limit: 1 });
    if (short.kind !== 'proof') throw new Error(`expected a proof, got ${short.kind}`);
    expect(short.proof.path.map((l) => l.seq)).to.deep.equal([1]);
    expect(short.proof.head).to.include({ length: 2, hash: ctx.commitments.links[1].hash });
    const page = await chainPage(ctx, 1, 2);
    expect(page.links.map((l) => l.seq)).to.deep.equal([1, 2]);
    expect(page.next).to.equal(3);
  });

  it('error: a record never committed has no proof; a head that does not hold the link, or lies beyond the chain, is refused', async () => {
    const ctx = fakeContext();
    await appendCommitments(ctx, [record('a'), record('r1')]);
    expect((await proofOf(ctx, 'nowhere')).kind).to.equal('not-committed');
    expect(await proofOf(ctx, 'r1', { to: 1 })).to.include({ kind: 'bad-to' });
    expect(await proofOf(ctx, 'r1', { to: 9 })).to.include({ kind: 'bad-to' });
  });
});

describe('track record (in-memory context)', () => {
  const settled = (id: string, eventId: string, startAt: string, o: Partial<{ confidence: string; sportId: number; createdAt: Date; result: string }> = {}) => ({
    _id: id,
    eventId,
    betItemId: `${eventId}-b`,
    confidence: o.confidence ?? 'High',
    sportId: o.sportId ?? 1,
    probability: 0.5,
    odds: 2.1,
    result: o.result ?? 'won',
    returnPerUnit: o.result === 'lost' ? 0 : 2.1,
    eventStartAt: new Date(startAt),
    createdAt: o.createdAt ?? new Date(startAt),
  });

  it("happy: the window runs back from the world's clock; bets of events not started yet are left out", async () => {
    const ctx = fakeContext(new Date('2026-11-21T12:00:00Z'));
    ctx.trackRecord.rows.push(settled('old', 'e0', '2026-10-01T12:00:00Z'), settled('in', 'e1', '2026-11-20T12:00:00Z'), settled('ahead', 'e2', '2026-11-21T18:00:00Z'));
    const { bets, from, to } = await loadTrackRecordBets(ctx, { days: 30 });
    expect(bets.map((b) => b.eventId)).to.deep.equal(['e1']);
    expect(to).to.deep.equal(ctx.clock.worldNow());
    expect(from?.toISOString()).to.equal('2026-10-22T12:00:00.000Z');
  });

  it('happy: per outcome counts the first bet of each outcome of an event; the report carries the chain head', async () => {
    const ctx = fakeContext(new Date('2026-11-21T12:00:00Z'));
    ctx.trackRecord.rows.push(
      settled('first', 'e1', '2026-11-20T12:00:00Z', { createdAt: new Date('2026-11-19T10:00:00Z') }),
      settled('again', 'e1', '2026-11-20T12:00:00Z', { createdAt: new Date('2026-11-19T11:00:00Z'), result: 'lost' }),
    );
    await appendCommitments(ctx, [record('first')]);
    const report = await trackRecordReport(ctx, { days: 30, per: 'outcome' });
    expect(report).to.include({ bets: 1, wins: 1 });
    expect(report.head.length).to.equal(1);
    expect(report.filters).to.deep.equal({ sport: null, confidence: null, per: 'outcome' });
    expect(report.lastPublishedHead).to.equal(null);
  });
});
