import { expect } from 'chai';
import { resultUpdate } from '../../../shared/platform/db/repositories/ai';
import {
  decidePick,
  decideRecommendation,
  legsSignature,
  legView,
  pickUpdate,
  recommendationUpdate,
  type GradingContext,
  type LegView,
  type PickRead,
  type RecommendationDecision,
  type RecommendationRead,
} from '../../../shared/domain/settlement/plan';
import { FINAL_2_1 } from '../../helpers/settlementFixtures';

const NOW = new Date('2024-05-01T18:00:00Z');
const ctx = (version: number, over: Partial<GradingContext> = {}): GradingContext => ({
  state: { kind: 'ended', endState: 'completed' },
  stats: FINAL_2_1,
  version,
  now: NOW,
  ...over,
});

const rec = (over: Partial<RecommendationRead> = {}): RecommendationRead => ({
  _id: 'rec-1',
  betTypeSysname: 'SOCCER_MATCH_RESULT',
  code: '1',
  odds: 2,
  settled: false,
  settledVersion: null,
  ...over,
});
const settledWon = (version: number) => rec({ settled: true, result: 'won', resultDetail: 'won', returnPerUnit: 2, settledVersion: version });
const settledLost = (version: number) => rec({ settled: true, result: 'lost', resultDetail: 'lost', returnPerUnit: 0, settledVersion: version });

describe('settlement plan: decideRecommendation (pure)', () => {
  const rows: [string, RecommendationRead, GradingContext, (d: RecommendationDecision) => void][] = [
    ['event not ended -> none', rec(), ctx(0, { state: { kind: 'pending' } }), (d) => expect(d).to.deep.equal({ kind: 'none', why: 'not-ended' })],
    ['unsettled, graded won -> settle', rec(), ctx(0), (d) => expect(d).to.deep.include({ kind: 'settle' }) && expect((d as { grade: object }).grade).to.include({ result: 'won', returnPerUnit: 2 })],
    ['settled at this version -> none up-to-date', settledWon(0), ctx(0), (d) => expect(d).to.deep.equal({ kind: 'none', why: 'up-to-date' })],
    ['settled at a newer version (a late old job) -> none up-to-date', settledWon(3), ctx(2), (d) => expect(d).to.deep.equal({ kind: 'none', why: 'up-to-date' })],
    ['settled at an older version, same outcome -> confirm', settledWon(0), ctx(1), (d) => expect(d).to.deep.equal({ kind: 'confirm' })],
    [
      'settled at an older version, outcome changed -> correct with the history entry',
      settledLost(0),
      ctx(1),
      (d) => {
        expect(d.kind).to.equal('correct');
        const c = d as Extract<RecommendationDecision, { kind: 'correct' }>;
        expect(c.grade).to.include({ result: 'won' });
        expect(c.entry).to.include({ previousResult: 'lost', previousResultDetail: 'lost', previousReturnPerUnit: 0, newResult: 'won', newResultDetail: 'won', newReturnPerUnit: 2 });
        expect(c.entry.reason).to.match(/resultVersion 1/);
      },
    ],
    [
      'abandoned: push (void_abandoned)',
      rec(),
      ctx(0, { state: { kind: 'ended', endState: 'abandoned' } }),
      (d) => expect((d as { grade: object }).grade).to.include({ result: 'push', reasonCode: 'void_abandoned' }),
    ],
    ['malformed bet -> error with its code', rec({ betTypeSysname: 'NO_SUCH_MARKET' }), ctx(0), (d) => expect(d).to.include({ kind: 'error', code: 'UNKNOWN_MARKET' })],
    [
      'same error already recorded at this version -> none error-recorded',
      rec({ betTypeSysname: 'NO_SUCH_MARKET', settlementError: { code: 'UNKNOWN_MARKET', resultVersion: 0 } }),
      ctx(0),
      (d) => expect(d).to.deep.equal({ kind: 'none', why: 'error-recorded' }),
    ],
    [
      'error recorded at an older version -> recorded again',
      rec({ betTypeSysname: 'NO_SUCH_MARKET', settlementError: { code: 'UNKNOWN_MARKET', resultVersion: 0 } }),
      ctx(1),
      (d) => expect(d).to.include({ kind: 'error', code: 'UNKNOWN_MARKET' }),
    ],
    ['bad odds -> error INVALID_ODDS', rec({ odds: 0.5 }), ctx(0), (d) => expect(d).to.include({ kind: 'error', code: 'INVALID_ODDS' })],
  ];
  for (const [name, r, c, check] of rows) it(name, () => check(decideRecommendation(r, c)));
});

describe('settlement plan: recommendationUpdate (pure)', () => {
  // The write as the store gets it (the repository's conditional update), so the assertions read as MongoDB's.
  const update = (r: RecommendationRead, c: GradingContext) => {
    const w = recommendationUpdate(r, decideRecommendation(r, c), c);
    return w && resultUpdate(w);
  };

  it('none writes nothing', () => {
    expect(update(settledWon(0), ctx(0))).to.equal(null);
  });

  it('settle: conditional on unsettled at the read version, sets the grade and version, counts one write', () => {
    const op = update(rec(), ctx(0))!;
    expect(op.updateOne.filter).to.deep.equal({ _id: 'rec-1', settled: false, settledVersion: null });
    expect(op.updateOne.update.$set).to.include({
      settled: true,
      result: 'won',
      resultDetail: 'won',
      returnPerUnit: 2,
      actualReturn: 2,
      settledVersion: 0,
      settlementDate: NOW,
      settlementError: null,
    });
    expect(op.updateOne.update.$inc).to.deep.equal({ settlementWrites: 1 });
    expect(op.updateOne.update).to.not.have.property('$push');
  });

  it('correct: conditional on settled at the old version, pushes the history, counts one write', () => {
    const op = update(settledLost(0), ctx(1))!;
    expect(op.updateOne.filter).to.deep.equal({ _id: 'rec-1', settled: true, settledVersion: 0 });
    expect(op.updateOne.update.$set).to.include({ result: 'won', settledVersion: 1 });
    expect(op.updateOne.update.$set).to.not.have.property('settlementDate');
    expect((op.updateOne.update.$push as { corrections: object }).corrections).to.include({ previousResult: 'lost', newResult: 'won', correctedAt: NOW, resultVersion: 1 });
    expect(op.updateOne.update.$inc).to.deep.equal({ settlementWrites: 1 });
  });

  it('confirm: only the version moves, no write counted', () => {
    const op = update(settledWon(0), ctx(1))!;
    expect(op.updateOne.filter).to.deep.equal({ _id: 'rec-1', settled: true, settledVersion: 0 });
    expect(op.updateOne.update).to.deep.equal({ $set: { settledVersion: 1, settlementError: null } });
  });

  it('error: records the error for review, no result and no write counted', () => {
    const op = update(rec({ betTypeSysname: 'NO_SUCH_MARKET' }), ctx(2))!;
    expect(op.updateOne.filter).to.deep.equal({ _id: 'rec-1', settled: false, settledVersion: null });
    expect(Object.keys(op.updateOne.update)).to.deep.equal(['$set']);
    expect(op.updateOne.update.$set).to.have.keys('settlementError');
    expect((op.updateOne.update.$set as { settlementError: object }).settlementError).to.include({ code: 'UNKNOWN_MARKET', resultVersion: 2, at: NOW });
  });
});

describe('settlement plan: picks (pure)', () => {
  const W: LegView = { result: 'won', resultDetail: 'won', returnPerUnit: 2 };
  const L: LegView = { result: 'lost', resultDetail: 'lost', returnPerUnit: 0 };
  const HW: LegView = { result: 'won', resultDetail: 'half_won', returnPerUnit: 1.5 };
  const OPEN: LegView = { result: null, resultDetail: null, returnPerUnit: null };
  const leg = (i: number) => ({ recommendationId: `rec-${i}`, eventId: `ev-${i}`, odds: 2 });
  const pick = (over: Partial<PickRead> = {}): PickRead => ({ _id: 'pick-1', pickType: 'parlay', legs: [leg(1), leg(2)], settled: false, legsState: null, ...over });
  const settledPick = (legs: LegView[], over: Partial<PickRead> = {}) =>
    pick({ settled: true, result: 'won', resultDetail: 'won', returnPerUnit: 4, settledVersion: 0, legsState: legsSignature(legs), ...over });

  it('legsSignature: result and return per leg, "-" for an open leg, order kept', () => {
    expect(legsSignature([W, OPEN, HW])).to.equal('won:2|-|half_won:1.5');
    expect(legsSignature([OPEN, W])).to.not.equal(legsSignature([W, OPEN]));
    expect(legsSignature([])).to.equal('');
  });

  it('legView: a settled recommendation, a cancelled-unplayed event (push), else open', () => {
    expect(legView({ settled: true, result: 'won', resultDetail: 'half_won', returnPerUnit: 1.5 }, false)).to.deep.equal(HW);
    expect(legView(undefined, true)).to.deep.equal({ result: 'push', resultDetail: 'push', returnPerUnit: 1 });
    expect(legView({ settled: false }, false)).to.deep.equal(OPEN);
  });

  const rows: [string, PickRead, LegView[], string][] = [
    ['unsettled, every leg won -> settle', pick(), [W, W], 'settle'],
    ['unsettled, one leg lost outright, one open -> settle (lost)', pick(), [L, OPEN], 'settle'],
    ['unsettled, one leg won, one open, legs changed -> legs', pick(), [W, OPEN], 'legs'],
    ['unsettled, legs as stored -> none', pick({ legsState: legsSignature([W, OPEN]) }), [W, OPEN], 'none'],
    ['settled, same grade, same legs -> none', settledPick([W, W]), [W, W], 'none'],
    ['settled won, a leg corrected to lost -> correct', settledPick([W, W]), [W, L], 'correct'],
    ['settled lost (leg 1), the open leg settles: grade unchanged -> legs', settledPick([L, OPEN], { result: 'lost', resultDetail: 'lost', returnPerUnit: 0 }), [L, W], 'legs'],
    ['single pick with two legs -> error', pick({ pickType: 'single' }), [W, W], 'error'],
    ['same error already recorded -> none', pick({ pickType: 'single', settlementError: { code: 'EMPTY_PARLAY' } }), [W, W], 'none'],
  ];
  for (const [name, p, legs, kind] of rows) it(`decidePick: ${name}`, () => expect(decidePick(p, legs, NOW, 'why').kind).to.equal(kind));

  it('pickUpdate: conditional on settled and legsState; legs rewritten whole; $inc only on settle and correct', () => {
    const p = pick();
    const settle = resultUpdate(pickUpdate(p, [W, W], decidePick(p, [W, W], NOW, 'why'), NOW, 0)!);
    expect(settle.updateOne.filter).to.deep.equal({ _id: 'pick-1', settled: false, legsState: null });
    expect(settle.updateOne.update.$set).to.include({ settled: true, result: 'won', returnPerUnit: 4, legsState: 'won:2|won:2', settledVersion: 0 });
    expect((settle.updateOne.update.$set as { legs: object[] }).legs[1]).to.deep.equal({ ...leg(2), ...W });
    expect(settle.updateOne.update.$inc).to.deep.equal({ settlementWrites: 1 });

    const legsOnly = resultUpdate(pickUpdate(p, [W, OPEN], decidePick(p, [W, OPEN], NOW, 'why'), NOW, 0)!);
    expect(legsOnly.updateOne.update).to.have.keys('$set');
    expect(legsOnly.updateOne.update.$set).to.have.keys('legsState', 'legs');

    const s = settledPick([W, W]);
    const correct = resultUpdate(pickUpdate(s, [W, L], decidePick(s, [W, L], NOW, 'why'), NOW, 1)!);
    expect(correct.updateOne.filter).to.deep.equal({ _id: 'pick-1', settled: true, legsState: 'won:2|won:2' });
    expect(correct.updateOne.update.$set).to.include({ result: 'lost', settledVersion: 1, legsState: 'won:2|lost:0' });
    expect((correct.updateOne.update.$push as { corrections: object }).corrections).to.include({ previousResult: 'won', newResult: 'lost', resultVersion: 1 });
    expect(correct.updateOne.update.$inc).to.deep.equal({ settlementWrites: 1 });

    const single = pick({ pickType: 'single' });
    const error = resultUpdate(pickUpdate(single, [W, W], decidePick(single, [W, W], NOW, 'why'), NOW, 0)!);
    expect(error.updateOne.update).to.have.keys('$set');
    expect((error.updateOne.update.$set as { settlementError: object }).settlementError).to.include({ code: 'EMPTY_PARLAY' });

    expect(pickUpdate(s, [W, W], { kind: 'none' }, NOW, 0)).to.equal(null);
  });
});
