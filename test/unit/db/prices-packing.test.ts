import { expect } from 'chai';
import { packedProjection, packPrices, unpackPrices } from '../../../shared/platform/db/repositories/pricesPacking';

const markets = [{ id: '1-MR', betTypeSysname: 'SOCCER_MATCH_RESULT', line: null, betItems: [{ id: '1-MR-1', code: '1', price: 2.15, isAvailable: true, bookPrices: { a: 2.1, 'book.b': 2.2 } }] }];
const previous = [{ id: '1-MR-1', price: 2.05, bookPrices: { a: 2 } }];

describe('price tables are stored packed', () => {
  const cases: { name: string; fields: Record<string, unknown>; stored: Record<string, unknown> }[] = [
    { name: 'both tables', fields: { dataSource: 's', markets, previous }, stored: { dataSource: 's', marketsJson: JSON.stringify(markets), previousJson: JSON.stringify(previous) } },
    { name: 'markets only ($set of a move without previous)', fields: { markets, movedAt: 5 }, stored: { marketsJson: JSON.stringify(markets), movedAt: 5 } },
    { name: 'no table (bookkeeping only)', fields: { analysisVersion: 3 }, stored: { analysisVersion: 3 } },
    { name: 'a null table is an empty one', fields: { previous: null }, stored: { previousJson: '[]' } },
  ];
  for (const c of cases) {
    it(`happy: packs ${c.name}`, () => expect(packPrices(c.fields)).to.deep.equal(c.stored));
  }

  it('happy: unpacking gives back exactly what was packed (prices, dotted keys, nulls)', () => {
    const row = { _id: 'e1', ...packPrices({ dataSource: 's', markets, previous }) };
    expect(unpackPrices(row)).to.deep.equal({ _id: 'e1', dataSource: 's', markets, previous });
  });

  it('happy: an absent table unpacks empty', () => {
    expect(unpackPrices({ _id: 'e1', analysisVersion: 1 })).to.deep.equal({ _id: 'e1', analysisVersion: 1, markets: [], previous: [] });
  });

  it('happy: a previous price a served snapshot did not know (null) reads back as it was stored', () => {
    const unknown = [{ id: '1-MR-1', price: null, bookPrices: { a: null, b: 2.1 } }];
    expect(unpackPrices({ _id: 'e1', previousJson: JSON.stringify(unknown) }).previous).to.deep.equal(unknown);
  });

  const corrupt: [name: string, table: 'marketsJson' | 'previousJson', rows: unknown][] = [
    ['a table that is not a list', 'marketsJson', { id: '1-MR' }],
    ['a market without its items', 'marketsJson', [{ id: '1-MR', betTypeSysname: 'SOCCER_MATCH_RESULT', line: null }]],
    ['an item whose price is text', 'marketsJson', [{ ...markets[0], betItems: [{ ...markets[0].betItems[0], price: '2.15' }] }]],
    ['an item with a book price that is not a number', 'marketsJson', [{ ...markets[0], betItems: [{ ...markets[0].betItems[0], bookPrices: { a: 'x' } }] }]],
    ['a market whose line is text', 'marketsJson', [{ ...markets[0], line: '2.5' }]],
    ['a previous price without its item id', 'previousJson', [{ price: 2 }]],
  ];
  for (const [name, table, rows] of corrupt) {
    it(`error: ${name} is a corrupt document, not a price`, () => {
      expect(() => unpackPrices({ _id: 'e1', [table]: JSON.stringify(rows) })).to.throw(/a stored prices document holds a (markets|previous) table of another shape/);
    });
  }

  it('error: a path into a packed table is refused (it would be written as a new top-level field)', () => {
    expect(() => packPrices({ 'markets.0.betItems.0.price': 2 })).to.throw(/markets\.0\.betItems\.0\.price/);
    expect(() => packPrices({ 'previous.0': {} })).to.throw(/previous\.0/);
  });

  it('happy: a projection names the stored fields', () => {
    expect(packedProjection({ markets: 1, liveFrom: 1 })).to.deep.equal({ marketsJson: 1, liveFrom: 1 });
  });
});
