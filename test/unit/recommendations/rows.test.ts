import { expect } from 'chai';
import { insertionIndex, matches, newestFirst, pageOf, rowOf, supersedes, type RecommendationRow, type RowFilter, type RowSource } from '../../../shared/domain/recommendations/rows';

const T = Date.parse('2026-11-21T10:00:00Z');
const source = (o: Partial<RowSource> = {}): RowSource => ({ _id: 'r1', createdAt: new Date(T), eventId: 'e1', confidence: 'High', settled: false, result: null, ...o });
const row = (o: Partial<RecommendationRow> = {}): RecommendationRow => ({ c: T, e: 'e1', f: 'High', s: 0, r: null, o: 0, v: '', ...o });

describe('recommendation rows of the list read model (pure)', () => {
  describe('rowOf', () => {
    const cases: [string, RowSource, 'insert' | 'settlement', Partial<RecommendationRow>][] = [
      ['happy: a fresh insert', source(), 'insert', { s: 0, r: null, o: 0, v: '' }],
      ['happy: graded, written by settlement', source({ settled: true, result: 'won', settlementWrites: 1, settledVersion: 0 }), 'settlement', { s: 1, r: 'won', o: 3, v: '0' }],
      ['happy: the same graded bet found stored by an insert', source({ settled: true, result: 'won', settlementWrites: 1, settledVersion: 0 }), 'insert', { s: 1, r: 'won', o: 2 }],
      ['happy: a correction is one more write', source({ settled: true, result: 'lost', settlementWrites: 2, settledVersion: 1 }), 'settlement', { o: 5, v: '1' }],
      ['edge: a grading error marks the body without a counted write', source({ settlementError: { code: 'x' } }), 'settlement', { s: 0, o: 1, v: 'e' }],
      ['edge: an unsettled bet has no result whatever is stored', source({ settled: false, result: 'won' }), 'insert', { s: 0, r: null }],
      ['edge: no createdAt sorts last', source({ createdAt: null }), 'insert', { c: 0 }],
    ];
    for (const [name, doc, writer, want] of cases) it(name, () => expect(rowOf(doc, writer)).to.include(want));
  });

  describe('supersedes', () => {
    const cases: [string, RecommendationRow, RecommendationRow | undefined, boolean][] = [
      ['happy: anything over nothing', row(), undefined, true],
      ['happy: a grading over the insert', row({ o: 3 }), row({ o: 0 }), true],
      ['happy: settlement restating its own write (a retry)', row({ o: 3 }), row({ o: 3 }), true],
      ['error: an insert never undoes a grading', row({ o: 0 }), row({ o: 3 }), false],
      ['error: a stale grading never undoes a correction', row({ o: 3 }), row({ o: 5 }), false],
      ['edge: a grading error over the insert', row({ o: 1, v: 'e' }), row({ o: 0 }), true],
    ];
    for (const [name, next, current, want] of cases) it(name, () => expect(supersedes(next, current)).to.equal(want));
  });

  describe('matches', () => {
    const settledWon = row({ s: 1, r: 'won', f: 'Low', e: 'e9' });
    const cases: [RowFilter, RecommendationRow, boolean][] = [
      [{}, settledWon, true],
      [{ settled: true }, settledWon, true],
      [{ settled: false }, settledWon, false],
      [{ settled: false }, row(), true],
      [{ result: 'won' }, settledWon, true],
      [{ result: 'lost' }, settledWon, false],
      [{ result: 'won' }, row(), false],
      [{ confidence: 'Low' }, settledWon, true],
      [{ confidence: 'High' }, settledWon, false],
      [{ eventId: 'e9', settled: true, result: 'won', confidence: 'Low' }, settledWon, true],
      [{ eventId: 'e1' }, settledWon, false],
    ];
    for (const [f, r, want] of cases) it(`${JSON.stringify(f)} ${want ? 'keeps' : 'drops'} ${JSON.stringify(r)}`, () => expect(matches(r, f)).to.equal(want));
  });

  describe('order and pages', () => {
    const entries: [string, RecommendationRow][] = [
      ['b', row({ c: T + 2 })],
      ['a', row({ c: T + 1, f: 'Low' })],
      ['c', row({ c: T + 1 })],
      ['d', row({ c: T, s: 1, r: 'won' })],
      ['e', row({ c: T - 5, f: 'Low' })],
    ];
    const sorted = [...entries].sort(newestFirst);

    it('happy: newest first, then by id (the store sort createdAt -1, _id 1)', () => expect(sorted.map(([id]) => id)).to.deep.equal(['b', 'a', 'c', 'd', 'e']));

    it('happy: insertionIndex keeps the order for every place an entry can go', () => {
      for (const [id, r] of [
        ['0', row({ c: T + 9 })],
        ['bb', row({ c: T + 2 })],
        ['b0', row({ c: T + 1 })],
        ['z', row({ c: T - 9 })],
      ] as [string, RecommendationRow][]) {
        const copy = [...sorted];
        copy.splice(insertionIndex(copy, [id, r]), 0, [id, r]);
        expect(copy).to.deep.equal([...copy].sort(newestFirst), id);
      }
    });

    const pages: [string, RowFilter, number, number, string[], number][] = [
      ['happy: the first page', {}, 1, 2, ['b', 'a'], 5],
      ['happy: a middle page', {}, 2, 2, ['c', 'd'], 5],
      ['happy: the last, short page', {}, 3, 2, ['e'], 5],
      ['edge: past the end: no ids, the count still', {}, 4, 2, [], 5],
      ['happy: a filter pages and counts its own rows', { confidence: 'Low' }, 1, 1, ['a'], 2],
      ['happy: a filter, its second page', { confidence: 'Low' }, 2, 1, ['e'], 2],
      ['edge: nothing matches', { result: 'push' }, 1, 10, [], 0],
    ];
    for (const [name, f, page, limit, ids, count] of pages) it(name, () => expect(pageOf(sorted, f, page, limit)).to.deep.equal({ ids, count }));
  });
});
