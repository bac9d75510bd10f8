import { expect } from 'chai';
import type { EventStatus } from '../../../shared/domain/events/status';
import { resultUpdate } from '../../../shared/platform/db/repositories/ai';
import { closingAtKickoff, closingLineOf, type ClosingLine, type ClosingMarket } from '../../../shared/domain/ingest/closing';
import { planIngest } from '../../../shared/domain/ingest/plan';
import type { PrevEvent, StoredMarket } from '../../../shared/domain/ingest/stored';
import { closingReference, closingValue, clvOf, pickClosingValue } from '../../../shared/domain/settlement/clv';
import { recommendationUpdate, type GradingContext, type RecommendationRead } from '../../../shared/domain/settlement/plan';
import { FINAL_2_1 } from '../../helpers/settlementFixtures';

const KICKOFF = new Date('2022-08-05T19:00:00Z');

/** A match-result market: consensus prices and per-book prices by outcome. */
function resultMarket(consensus: [number, number, number], books: Record<string, [number, number, number]>): ClosingMarket {
  return {
    id: '9-SOCCER_MATCH_RESULT',
    betTypeSysname: 'SOCCER_MATCH_RESULT',
    line: null,
    betItems: ['1', 'X', '2'].map((code, i) => ({
      id: `9-SOCCER_MATCH_RESULT-${code}`,
      code,
      price: consensus[i],
      bookPrices: Object.fromEntries(Object.entries(books).map(([b, p]) => [b, p[i]])),
    })),
  };
}

describe('closing line value (pure)', () => {
  describe('closingReference: proportional de-vig of Pinnacle when it quotes the whole market, else the consensus', () => {
    const rows: [string, ClosingMarket, string | null, number[] | null][] = [
      // 1/2 + 1/4 + 1/4 = 1: no margin, the prices are the fair ones.
      ['no margin', resultMarket([2, 4, 4], { pinnacle: [2, 4, 4] }), 'pinnacle', [0.5, 0.25, 0.25]],
      // Booksum 1/1.9 + 1/3.8 + 1/3.8 = 1.0526...: each probability scaled down by it.
      ['Pinnacle with margin', resultMarket([1.8, 3.5, 3.5], { pinnacle: [1.9, 3.8, 3.8], bet365: [1.8, 3.5, 3.5] }), 'pinnacle', [0.5, 0.25, 0.25]],
      ['Pinnacle missing an outcome -> consensus', resultMarket([1.9, 3.8, 3.8], { pinnacle: [1.9, 3.8, NaN] }), 'consensus', [0.5, 0.25, 0.25]],
      ['no Pinnacle -> consensus', resultMarket([4.56, 3.57, 1.85], { bet365: [4.5, 3.6, 1.8] }), 'consensus', [0.2109, 0.2694, 0.5198]],
    ];
    for (const [name, market, source, probabilities] of rows) {
      it(name, () => {
        const ref = closingReference(market);
        expect(ref?.source ?? null).to.equal(source);
        expect(ref ? [...ref.probabilities.values()].map((p) => Math.round(p * 1e4) / 1e4) : null).to.deep.equal(probabilities);
      });
    }
    it('error: a market missing an outcome has no reference', () => {
      const m = resultMarket([2, 4, 4], { pinnacle: [2, 4, 4] });
      expect(closingReference({ ...m, betItems: m.betItems.slice(0, 2) })).to.equal(null);
    });
  });

  describe('clv = taken odds / de-vigged closing fair odds - 1', () => {
    const rows: [number, number, number][] = [
      [2.2, 0.5, 0.1],
      [2.0, 0.5, 0],
      [1.8, 0.5, -0.1],
      [5.0, 0.25, 0.25],
      [3.1, 1 / 3, 0.033333],
    ];
    for (const [odds, p, clv] of rows) it(`odds ${odds}, fair closing probability ${p.toFixed(4)} -> ${clv}`, () => expect(clvOf(odds, p)).to.equal(clv));
  });

  describe('closingValue of a recommendation', () => {
    const line: ClosingLine = { capturedAt: KICKOFF, markets: [resultMarket([1.8, 3.5, 3.5], { pinnacle: [1.9, 3.8, 3.8], bet365: [1.8, 3.5, 3.5] })] };
    it('happy: the Pinnacle closing price of its outcome and the CLV against the fair close', () => {
      expect(closingValue({ betItemId: '9-SOCCER_MATCH_RESULT-1', odds: 2.1 }, line)).to.deep.equal({ closingOdds: 1.9, clv: 0.05 });
      expect(closingValue({ betItemId: '9-SOCCER_MATCH_RESULT-2', odds: 3.6 }, line)).to.deep.equal({ closingOdds: 3.8, clv: -0.1 });
    });
    it('edge: no closing line, or none for its market -> null, null', () => {
      expect(closingValue({ betItemId: '9-SOCCER_MATCH_RESULT-1', odds: 2.1 }, null)).to.deep.equal({ closingOdds: null, clv: null });
      expect(closingValue({ betItemId: '9-SOCCER_UNDER_OVER@2.5-O', odds: 2.1 }, line)).to.deep.equal({ closingOdds: null, clv: null });
    });
  });

  describe("pickClosingValue: a single's is its leg's; a parlay's multiplies (legs on different events)", () => {
    const leg = (closingOdds: number | null, clv: number | null) => ({ closingOdds, clv });
    const rows: [string, ReturnType<typeof leg>[], ReturnType<typeof leg>][] = [
      ['single', [leg(1.9, 0.05)], leg(1.9, 0.05)],
      // Taken 2.1 x 3.6 = 7.56 against fair closing probabilities 0.5 x 0.25: 7.56 x 0.125 - 1 = -0.055.
      ['parlay of two', [leg(1.9, 0.05), leg(3.8, -0.1)], leg(7.22, -0.055)],
      ['parlay of three, all beating the close', [leg(2, 0.1), leg(2, 0.1), leg(1.5, 0.02)], leg(6, 0.2342)],
      ['a leg without a closing line', [leg(1.9, 0.05), leg(null, null)], leg(null, null)],
      ['no legs', [], leg(null, null)],
    ];
    for (const [name, legs, want] of rows) it(`${name} -> ${JSON.stringify(want)}`, () => expect(pickClosingValue(legs)).to.deep.equal(want));
    it('agrees with clvOf on the parlay price and the product of the fair probabilities', () => {
      expect(pickClosingValue([leg(1.9, clvOf(2.1, 0.5)), leg(3.8, clvOf(3.6, 0.25))]).clv).to.equal(clvOf(2.1 * 3.6, 0.5 * 0.25));
    });
  });

  describe('settlement writes closingOdds and clv with the first settlement', () => {
    const rec: RecommendationRead = { _id: 'r1', betItemId: '9-SOCCER_MATCH_RESULT-1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', odds: 2.1, settled: false, settledVersion: null };
    const ctx = (closing: ClosingLine | null): GradingContext => ({ state: { kind: 'ended', endState: 'completed' }, stats: FINAL_2_1, version: 0, now: KICKOFF, closing });
    const grade = { result: 'won', resultDetail: 'won', returnPerUnit: 2.1, actualReturn: 2.1, reasonCode: 'graded', reason: 'won' } as never;
    it('happy: with a closing line', () => {
      const op = resultUpdate(recommendationUpdate(rec, { kind: 'settle', grade }, ctx({ capturedAt: KICKOFF, markets: [resultMarket([1.8, 3.5, 3.5], { pinnacle: [1.9, 3.8, 3.8] })] }))!);
      expect(op.updateOne.update.$set).to.include({ settled: true, result: 'won', closingOdds: 1.9, clv: 0.05 });
    });
    it('edge: without one, both null (the other settlement fields unchanged)', () => {
      const op = resultUpdate(recommendationUpdate(rec, { kind: 'settle', grade }, ctx(null))!);
      expect(op.updateOne.update.$set).to.include({ settled: true, result: 'won', closingOdds: null, clv: null });
    });
  });
});

describe('closing line captured at kickoff (pure)', () => {
  const markets: StoredMarket[] = [
    {
      id: '9-SOCCER_MATCH_RESULT',
      betTypeSysname: 'SOCCER_MATCH_RESULT',
      line: null,
      betItems: [
        { id: '9-SOCCER_MATCH_RESULT-1', code: '1', price: 1.8, isAvailable: true, bookPrices: { pinnacle: 1.9, bet365: 1.8 } },
        { id: '9-SOCCER_MATCH_RESULT-X', code: 'X', price: 3.5, isAvailable: true, bookPrices: { pinnacle: 3.8, bet365: 3.5 } },
        { id: '9-SOCCER_MATCH_RESULT-2', code: '2', price: 3.5, isAvailable: true, bookPrices: { pinnacle: 3.8, bet365: 3.5 } },
      ],
    },
    // A handicap line withdrawn before kickoff: it has no closing price.
    { id: '9-SOCCER_ASIAN_HANDICAP@-0.5', betTypeSysname: 'SOCCER_ASIAN_HANDICAP', line: -0.5, betItems: [{ id: 'x', code: '1', price: 2, isAvailable: false }] },
  ];
  const prev = (status: EventStatus): PrevEvent => ({ _id: '9', status });
  const started = { status: 'live' as const, startedAt: KICKOFF, startDateTime: KICKOFF };

  it('happy: upcoming -> started stores the last pre-match prices of every quoted market, per book', () => {
    expect(closingAtKickoff(prev('upcoming'), markets, started)).to.deep.equal(closingLineOf(markets, KICKOFF));
    expect(closingLineOf(markets, KICKOFF).markets.map((m) => m.id)).to.deep.equal(['9-SOCCER_MATCH_RESULT']);
    expect(closingLineOf(markets, KICKOFF).markets[0].betItems[0]).to.deep.equal({ id: '9-SOCCER_MATCH_RESULT-1', code: '1', price: 1.8, bookPrices: { pinnacle: 1.9, bet365: 1.8 } });
    // Seen ending in one poll (upcoming, then completed) it is still the kickoff's line.
    expect(closingAtKickoff(prev('upcoming'), markets, { ...started, status: 'completed' })).to.not.equal(null);
  });
  it('edge: not at the transition (already live, still upcoming, first seen started, postponed before kickoff) or no stored prices -> nothing', () => {
    expect(closingAtKickoff(prev('live'), markets, started)).to.equal(null);
    expect(closingAtKickoff(prev('upcoming'), markets, { status: 'upcoming', startedAt: null, startDateTime: KICKOFF })).to.equal(null);
    expect(closingAtKickoff(undefined, markets, started)).to.equal(null);
    expect(closingAtKickoff(prev('upcoming'), markets, { status: 'postponed', startedAt: null, startDateTime: KICKOFF })).to.equal(null);
    // No stored prices (none, or none still quoted): nothing to close.
    expect(closingAtKickoff(prev('upcoming'), undefined, started)).to.equal(null);
    expect(closingAtKickoff(prev('upcoming'), [], started)).to.equal(null);
    expect(closingAtKickoff(prev('upcoming'), [markets[1]], started)).to.equal(null);
  });
});

describe('ingest planner writes the closing line once, at kickoff', () => {
  it('happy: the poll that sees the event start sets Event.closingLine from the stored pre-match markets', () => {
    const markets: StoredMarket[] = [
      {
        id: '9-SOCCER_MATCH_RESULT',
        betTypeSysname: 'SOCCER_MATCH_RESULT',
        line: null,
        betItems: ['1', 'X', '2'].map((code) => ({ id: `9-SOCCER_MATCH_RESULT-${code}`, code, price: 3, isAvailable: true, bookPrices: { pinnacle: 3.1 } })),
      },
    ];
    const e = {
      eventId: '9',
      providerEventId: '9',
      sportId: 1 as const,
      competition: { id: 1, name: 'Premier League', regionCode: 'GB-ENG', priority: 100 },
      homeTeam: { name: 'Fulham', regionCode: 'GB-ENG' },
      awayTeam: { name: 'Liverpool', regionCode: 'GB-ENG' },
      startDateTime: KICKOFF,
      status: 'live' as const,
      voided: false,
      startedAt: KICKOFF,
      endedAt: null,
      lineups: null,
    };
    const batch = { provider: 'replay', capturedAt: KICKOFF, events: [e], odds: new Map(), live: new Map(), results: new Map() };
    const plan = (status: EventStatus) => planIngest(batch, new Map([['9', { event: { _id: '9', status, startDateTime: KICKOFF }, prices: { markets }, live: null }]]), KICKOFF);
    const set = (status: EventStatus) => plan(status).events.find((w) => w.id === '9')?.set ?? {};
    expect(set('upcoming').closingLine).to.deep.equal(closingLineOf(markets, KICKOFF));
    expect(set('live')).to.not.have.property('closingLine');
    // The kickoff's closing line also goes out on the change feed, once.
    expect(plan('upcoming').changes.filter((c) => c.kind === 'closing')).to.deep.equal([{ eventId: '9', kind: 'closing', at: KICKOFF, data: closingLineOf(markets, KICKOFF) }]);
    expect(plan('live').changes.filter((c) => c.kind === 'closing')).to.deep.equal([]);
  });
});
