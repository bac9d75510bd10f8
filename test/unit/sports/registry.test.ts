import { expect } from 'chai';
import { MARKET_TYPES, marketTypesForSport } from '../../../shared/domain/markets/catalog';
import { findSportDefinition, isSportId, sportById, sportByName, sportDefinition, SPORT_IDS, SPORT_NAMES, SPORTS } from '../../../shared/domain/sports';

const total = (p: number[][]) => p.flat().reduce((a, b) => a + b, 0);

describe('the sport registry', () => {
  it('happy: ids and names are the contract: never renumbered, never renamed', () => {
    expect(SPORTS.map((s) => [s.id, s.sysname])).to.deep.equal([
      [1, 'soccer'],
      [2, 'basketball'],
      [3, 'tennis'],
      [4, 'baseball'],
      [5, 'volleyball'],
      [6, 'american-football'],
      [7, 'ice-hockey'],
      [8, 'handball'],
    ]);
    expect(SPORT_NAMES).to.deep.equal(SPORTS.map((s) => s.sysname));
    expect(sportByName('ice-hockey')?.id).to.equal(7);
    expect(sportById(3)?.name.es).to.equal('Tenis');
  });

  it("happy: the catalog is every definition's markets, in id order, each name once", () => {
    expect(MARKET_TYPES.map((t) => t.sysname)).to.deep.equal(SPORT_IDS.flatMap((id) => sportDefinition(id).markets.map((m) => m.sysname)));
    expect(new Set(MARKET_TYPES.map((t) => t.sysname)).size).to.equal(MARKET_TYPES.length);
  });

  for (const id of SPORT_IDS) {
    const sport = sportDefinition(id);
    it(`happy: ${sport.sysname}: its markets, model and fit agree with one another`, () => {
      const markets = marketTypesForSport(id);
      expect(markets.map((m) => m.sysname)).to.deep.equal(sport.markets.map((m) => m.sysname));
      expect(markets.every((m) => m.sportId === id)).to.equal(true);
      // A draw is a result only where the main market has three ways.
      expect(markets.find((m) => m.sysname === sport.mainMarket)?.kind).to.equal(sport.hasDraw ? 'result3' : 'winner2');
      const { model } = sport;
      model.initial.forEach((v, i) => expect(v, model.names[i]).to.be.within(model.lower[i], model.upper[i]));
      expect(total(model.grid(model.initial, {}).p)).to.be.closeTo(1, 1e-9);
      expect(sport.firstHalf !== null, 'a first-half model iff first-half markets').to.equal(markets.some((m) => m.period === '1H'));
      if (sport.firstHalf) expect(total(sport.firstHalf(model.initial, {}).p)).to.be.closeTo(1, 1e-9);
      expect(sport.fit.counts, 'count models iff corner or card markets').to.equal(markets.some((m) => m.stat !== 'score'));
      expect(model.names.length, 'one parameter for sets, two otherwise').to.equal(sport.fit.family === 'sets' ? 1 : 2);
      expect(sport.narrativeScore, 'no expected score quoted in sets').to.equal(sport.fit.family !== 'sets');
    });
  }

  it('error: a number the service does not carry has no definition', () => {
    for (const id of [0, 9, -1, 1.5, NaN]) {
      expect(isSportId(id), String(id)).to.equal(false);
      expect(findSportDefinition(id)).to.equal(undefined);
      expect(() => sportDefinition(id)).to.throw(RangeError, `no sport ${id}`);
    }
    expect(isSportId(8)).to.equal(true);
  });
});
