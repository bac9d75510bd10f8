import { expect } from 'chai';
import { closingLineAt, closingMarkets, marketsAt, nothingStoredReason, oddsAt, openAt, type Reprice } from '../../../shared/domain/events/oddsAt';
import type { ClosingLine } from '../../../shared/domain/ingest/closing';
import type { StoredMarket } from '../../../shared/domain/ingest/stored';

const T = (hhmm: string) => new Date(`2026-10-03T${hhmm}:00Z`);
const HOME = '9-SOCCER_MATCH_RESULT-1';
const DRAW = '9-SOCCER_MATCH_RESULT-X';
const AWAY = '9-SOCCER_MATCH_RESULT-2';
const OVER = '9-SOCCER_UNDER_OVER@2.5-O';
const UNDER = '9-SOCCER_UNDER_OVER@2.5-U';

/** 12:00 first seen (match result only), 13:00 the home and away prices move, 13:40 the total appears, 14:15 the draw moves. Given out of order. */
const HISTORY: Reprice[] = [
  {
    at: T('13:40'),
    items: [
      { id: OVER, price: 1.85 },
      { id: UNDER, price: 1.95 },
    ],
  },
  {
    at: T('12:00'),
    items: [
      { id: HOME, price: 2.0 },
      { id: DRAW, price: 3.4 },
      { id: AWAY, price: 3.9 },
    ],
  },
  { at: T('14:15'), items: [{ id: DRAW, price: 4.0 }] },
  {
    at: T('13:00'),
    items: [
      { id: HOME, price: 1.95 },
      { id: AWAY, price: 4.0 },
    ],
  },
];

const MARKETS: StoredMarket[] = [
  {
    id: '9-SOCCER_MATCH_RESULT',
    betTypeSysname: 'SOCCER_MATCH_RESULT',
    line: null,
    betItems: [
      { id: HOME, code: '1', price: 1.6, isAvailable: false, bookPrices: { 'book-a': 1.62 } },
      { id: DRAW, code: 'X', price: 4.0, isAvailable: false },
      { id: AWAY, code: '2', price: 6.0, isAvailable: false },
    ],
  },
  {
    id: '9-SOCCER_UNDER_OVER@2.5',
    betTypeSysname: 'SOCCER_UNDER_OVER',
    line: 2.5,
    betItems: [
      { id: OVER, code: 'O', price: 1.85, isAvailable: false },
      { id: UNDER, code: 'U', price: 1.95, isAvailable: false },
    ],
  },
];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

describe('odds at a past instant (shared/domain/events/oddsAt.ts)', () => {
  const cases: { at: string; capturedAt: string | null; previousAt: string | null; nextAt: string | null; prices: Record<string, number> }[] = [
    { at: '11:59', capturedAt: null, previousAt: null, nextAt: '12:00', prices: {} },
    { at: '12:00', capturedAt: '12:00', previousAt: null, nextAt: '13:00', prices: { [HOME]: 2.0, [DRAW]: 3.4, [AWAY]: 3.9 } },
    { at: '12:30', capturedAt: '12:00', previousAt: null, nextAt: '13:00', prices: { [HOME]: 2.0, [DRAW]: 3.4, [AWAY]: 3.9 } },
    { at: '13:00', capturedAt: '13:00', previousAt: '12:00', nextAt: '13:40', prices: { [HOME]: 1.95, [DRAW]: 3.4, [AWAY]: 4.0 } },
    { at: '13:39', capturedAt: '13:00', previousAt: '12:00', nextAt: '13:40', prices: { [HOME]: 1.95, [DRAW]: 3.4, [AWAY]: 4.0 } },
    { at: '13:40', capturedAt: '13:40', previousAt: '13:00', nextAt: '14:15', prices: { [HOME]: 1.95, [DRAW]: 3.4, [AWAY]: 4.0, [OVER]: 1.85, [UNDER]: 1.95 } },
    { at: '14:15', capturedAt: '14:15', previousAt: '13:40', nextAt: null, prices: { [HOME]: 1.95, [DRAW]: 4.0, [AWAY]: 4.0, [OVER]: 1.85, [UNDER]: 1.95 } },
    { at: '23:00', capturedAt: '14:15', previousAt: '13:40', nextAt: null, prices: { [HOME]: 1.95, [DRAW]: 4.0, [AWAY]: 4.0, [OVER]: 1.85, [UNDER]: 1.95 } },
  ];
  for (const c of cases) {
    it(`happy: at ${c.at}: captured ${c.capturedAt ?? 'none'}, previous ${c.previousAt ?? 'none'}, next ${c.nextAt ?? 'none'}, each item at its latest price by then`, () => {
      const r = oddsAt(HISTORY, T(c.at));
      expect([iso(r.capturedAt), iso(r.previousAt), iso(r.nextAt)]).to.deep.equal([c.capturedAt, c.previousAt, c.nextAt].map((h) => (h ? T(h).toISOString() : null)));
      expect(Object.fromEntries(r.prices)).to.deep.equal(c.prices);
    });
  }

  it('happy: one millisecond before and after a stored instant fall on either side of it', () => {
    const before = oddsAt(HISTORY, new Date(T('13:00').getTime() - 1));
    const after = oddsAt(HISTORY, new Date(T('13:00').getTime() + 1));
    expect([iso(before.capturedAt), iso(before.nextAt)]).to.deep.equal([T('12:00').toISOString(), T('13:00').toISOString()]);
    expect([iso(after.capturedAt), iso(after.previousAt), iso(after.nextAt)]).to.deep.equal([T('13:00').toISOString(), T('12:00').toISOString(), T('13:40').toISOString()]);
  });

  it('happy: no history: nothing captured, no instants', () => {
    const r = oddsAt([], T('12:00'));
    expect([r.capturedAt, r.previousAt, r.nextAt, r.firstAt, r.prices.size]).to.deep.equal([null, null, null, null, 0]);
  });

  it('happy: why nothing is served: before the first capture (the history starts at firstAt), no price stored at all, or null when a state is served', () => {
    const first = T('12:00').toISOString();
    const rows: [string, ReturnType<typeof oddsAt>, string | null, string | null][] = [
      ['before the first', oddsAt(HISTORY, T('11:59')), 'before_first_capture', first],
      ['at the first', oddsAt(HISTORY, T('12:00')), null, first],
      ['after the last', oddsAt(HISTORY, T('23:00')), null, first],
      ['no history', oddsAt([], T('12:00')), 'no_prices_stored', null],
      ['history out of order', oddsAt([...HISTORY].reverse(), T('11:00')), 'before_first_capture', first],
    ];
    for (const [name, r, reason, firstAt] of rows) expect([nothingStoredReason(r), iso(r.firstAt)], name).to.deep.equal([reason, firstAt]);
  });

  it('happy: two reprices at one instant are one instant, the later listed winning', () => {
    const r = oddsAt(
      [
        { at: T('12:00'), items: [{ id: HOME, price: 2 }] },
        { at: T('12:00'), items: [{ id: HOME, price: 2.1 }] },
        { at: T('12:05'), items: [{ id: HOME, price: 2.2 }] },
      ],
      T('12:05'),
    );
    expect([iso(r.capturedAt), iso(r.previousAt), r.prices.get(HOME)]).to.deep.equal([T('12:05').toISOString(), T('12:00').toISOString(), 2.2]);
    expect(
      oddsAt(
        [
          { at: T('12:00'), items: [{ id: HOME, price: 2 }] },
          { at: T('12:00'), items: [{ id: HOME, price: 2.1 }] },
        ],
        T('12:01'),
      ).previousAt,
    ).to.equal(null);
  });

  it('happy: the markets as they stood: items priced by then at that price, others and empty markets left out, no book prices', () => {
    expect(marketsAt(MARKETS, oddsAt(HISTORY, T('13:00')).prices, true)).to.deep.equal([
      {
        id: '9-SOCCER_MATCH_RESULT',
        betTypeSysname: 'SOCCER_MATCH_RESULT',
        line: null,
        betItems: [
          { id: HOME, code: '1', price: 1.95, isAvailable: true },
          { id: DRAW, code: 'X', price: 3.4, isAvailable: true },
          { id: AWAY, code: '2', price: 4.0, isAvailable: true },
        ],
      },
    ]);
    expect(marketsAt(MARKETS, oddsAt(HISTORY, T('23:00')).prices, false).flatMap((m) => m.betItems.map((i) => [i.id, i.price, i.isAvailable]))).to.deep.equal([
      [HOME, 1.95, false],
      [DRAW, 4.0, false],
      [AWAY, 4.0, false],
      [OVER, 1.85, false],
      [UNDER, 1.95, false],
    ]);
    expect(marketsAt(MARKETS, new Map(), true)).to.deep.equal([]);
  });

  it('happy: open until the instant the event ended, closed from it on', () => {
    const cases: [Date | null | undefined, string, boolean][] = [
      [null, '23:00', true],
      [undefined, '23:00', true],
      [T('15:50'), '15:49', true],
      [T('15:50'), '15:50', false],
      [T('15:50'), '16:00', false],
    ];
    for (const [endedAt, at, open] of cases) expect(openAt(endedAt, T(at)), `${iso(endedAt ?? null)} at ${at}`).to.equal(open);
  });

  it('happy: the closing line from kickoff on, never before it, none when none was captured', () => {
    const line: ClosingLine = {
      capturedAt: T('14:00'),
      markets: [{ id: '9-SOCCER_MATCH_RESULT', betTypeSysname: 'SOCCER_MATCH_RESULT', line: null, betItems: [{ id: HOME, code: '1', price: 1.95, bookPrices: { 'book-a': 2.0 } }] }],
    };
    const cases: [ClosingLine | null, Date | null, string, ClosingLine | null][] = [
      [line, T('14:00'), '13:59', null],
      [line, T('14:00'), '14:00', line],
      [line, T('14:00'), '16:00', line],
      [line, null, '16:00', null],
      [null, T('14:00'), '16:00', null],
    ];
    for (const [l, startedAt, at, want] of cases) expect(closingLineAt(l, startedAt, T(at)), at).to.equal(want);
    expect(closingMarkets(line)).to.deep.equal([
      { id: '9-SOCCER_MATCH_RESULT', betTypeSysname: 'SOCCER_MATCH_RESULT', line: null, betItems: [{ id: HOME, code: '1', price: 1.95, isAvailable: true }] },
    ]);
  });
});
