import { expect } from 'chai';
import { marketType } from '../../../shared/domain/markets/catalog';
import { SPORT_IDS } from '../../../shared/domain/sports';
import { sportIdOf, sysnameOf } from '../../../shared/platform/providers/theoddsapi/mapping';

describe('The Odds API: its sports and featured markets as ours', () => {
  const sports: [key: string, group: string | undefined, want: number | undefined][] = [
    ['soccer_epl', 'Soccer', 1],
    ['basketball_nba', undefined, 2],
    ['icehockey_nhl', 'Ice Hockey', 7],
    ['americanfootball_nfl', 'American Football', 6],
    // The group wins over the key's prefix; neither known: a sport we do not carry.
    ['soccer_fifa_world_cup_winner', 'Handball', 8],
    ['cricket_ipl', 'Cricket', undefined],
    ['cricket_ipl', undefined, undefined],
  ];
  for (const [key, group, want] of sports) it(`happy: ${key} (${group ?? 'no group'}) -> ${want ?? 'not carried'}`, () => expect(sportIdOf(key, group)).to.equal(want));

  const markets: [sportId: 1 | 2 | 3 | 8, api: string, threeWay: boolean, want: string | undefined][] = [
    [1, 'h2h', true, 'SOCCER_MATCH_RESULT'],
    [1, 'h2h', false, undefined],
    [2, 'h2h', false, 'BASKETBALL_MONEYLINE'],
    [3, 'spreads', false, undefined],
    [8, 'totals', true, 'HANDBALL_TOTAL_GOALS'],
    [2, 'outrights', false, undefined],
  ];
  for (const [sportId, api, threeWay, want] of markets)
    it(`happy: sport ${sportId} ${api}${threeWay ? ' (three-way)' : ''} -> ${want ?? 'not carried'}`, () => expect(sysnameOf(sportId, api, threeWay)).to.equal(want));

  it('happy: every market it maps to is a catalog market of that sport, and of the right width', () => {
    for (const id of SPORT_IDS)
      for (const api of ['h2h', 'spreads', 'totals'])
        for (const threeWay of [false, true]) {
          const sysname = sysnameOf(id, api, threeWay);
          if (sysname === undefined) continue;
          const type = marketType(sysname);
          expect(type?.sportId, sysname).to.equal(id);
          if (api === 'h2h') expect(type?.kind, sysname).to.equal(threeWay ? 'result3' : 'winner2');
        }
  });
});
