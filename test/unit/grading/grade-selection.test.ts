import { expect } from 'chai';
import { MARKET_TYPES } from '../../../shared/domain/markets/catalog';
import { EMPTY_STATS } from '../../../shared/domain/stats';
import { GradingError } from '../../../shared/domain/grading/errors';
import { gradeSelection } from '../../../shared/domain/grading/grade';
import { sel, stats } from './helpers';

type Row = [string, string, number | null, string, string, Record<string, number | null>?];

// [market, code, line, score "h-a", expected resultDetail, stat overrides]
const MARKET_ROWS: Row[] = [
  // result3 full time
  ['SOCCER_MATCH_RESULT', '1', null, '2-1', 'won'],
  ['SOCCER_MATCH_RESULT', 'X', null, '2-1', 'lost'],
  ['SOCCER_MATCH_RESULT', '2', null, '2-1', 'lost'],
  ['SOCCER_MATCH_RESULT', 'X', null, '1-1', 'won'],
  ['SOCCER_MATCH_RESULT', '2', null, '0-3', 'won'],
  ['HANDBALL_MATCH_RESULT', 'X', null, '27-27', 'won'],
  ['HANDBALL_MATCH_RESULT', '1', null, '30-27', 'won'],
  // result3 first half reads the half-time score, not full time
  ['SOCCER_FIRST_HALF_RESULT', '2', null, '3-1', 'won', { homeGoalsFirstHalf: 0, awayGoalsFirstHalf: 1 }],
  ['SOCCER_FIRST_HALF_RESULT', '1', null, '3-1', 'lost', { homeGoalsFirstHalf: 0, awayGoalsFirstHalf: 1 }],
  ['SOCCER_FIRST_HALF_RESULT', 'X', null, '3-1', 'won', { homeGoalsFirstHalf: 1, awayGoalsFirstHalf: 1 }],
  // winner2, tie refunds
  ['BASKETBALL_MONEYLINE', '1', null, '101-99', 'won'],
  ['BASKETBALL_MONEYLINE', '2', null, '101-99', 'lost'],
  ['TENNIS_MATCH_WINNER', '2', null, '1-2', 'won'],
  ['BASEBALL_MONEYLINE', '1', null, '3-4', 'lost'],
  ['VOLLEYBALL_MATCH_WINNER', '1', null, '3-2', 'won'],
  ['AMERICAN_FOOTBALL_MONEYLINE', '1', null, '20-20', 'push'],
  ['AMERICAN_FOOTBALL_MONEYLINE', '2', null, '20-20', 'push'],
  ['ICE_HOCKEY_MONEYLINE', '2', null, '2-3', 'won'],
  // totals: half lines, exact whole line = push, quarter lines both directions
  ['SOCCER_UNDER_OVER', 'O', 2.5, '2-1', 'won'],
  ['SOCCER_UNDER_OVER', 'U', 2.5, '2-1', 'lost'],
  ['SOCCER_UNDER_OVER', 'O', 2.5, '1-1', 'lost'],
  ['SOCCER_UNDER_OVER', 'O', 3, '2-1', 'push'],
  ['SOCCER_UNDER_OVER', 'U', 3, '2-1', 'push'],
  ['SOCCER_UNDER_OVER', 'O', 2.25, '1-1', 'half_lost'],
  ['SOCCER_UNDER_OVER', 'U', 2.25, '1-1', 'half_won'],
  ['SOCCER_UNDER_OVER', 'O', 2.75, '2-1', 'half_won'],
  ['SOCCER_UNDER_OVER', 'U', 2.75, '2-1', 'half_lost'],
  ['SOCCER_UNDER_OVER', 'O', 2.25, '2-1', 'won'],
  ['SOCCER_UNDER_OVER', 'U', 2.75, '1-1', 'won'],
  ['SOCCER_UNDER_OVER', 'O', 0.5, '0-0', 'lost'],
  ['SOCCER_UNDER_OVER', 'U', 0.25, '0-0', 'half_won'],
  ['SOCCER_UNDER_OVER', 'O', 0.25, '0-0', 'half_lost'],
  ['SOCCER_UNDER_OVER', 'O', 0.25, '1-0', 'won'],
  ['SOCCER_UNDER_OVER', 'U', 0.75, '1-0', 'half_lost'],
  ['BASKETBALL_TOTAL_POINTS', 'O', 210.5, '110-101', 'won'],
  ['BASKETBALL_TOTAL_POINTS', 'U', 211, '110-101', 'push'],
  ['TENNIS_TOTAL_SETS', 'O', 3.5, '2-1', 'lost'],
  ['BASEBALL_TOTAL_RUNS', 'U', 8.5, '5-3', 'won'],
  ['VOLLEYBALL_TOTAL_SETS', 'O', 4.5, '3-2', 'won'],
  ['AMERICAN_FOOTBALL_TOTAL_POINTS', 'U', 44.5, '24-21', 'lost'],
  ['ICE_HOCKEY_TOTAL_GOALS', 'O', 5.5, '3-2', 'lost'],
  ['HANDBALL_TOTAL_GOALS', 'O', 55.5, '30-27', 'won'],
  ['SOCCER_FIRST_HALF_UNDER_OVER', 'O', 0.5, '3-0', 'lost', { homeGoalsFirstHalf: 0, awayGoalsFirstHalf: 0 }],
  ['SOCCER_FIRST_HALF_UNDER_OVER', 'O', 1, '3-0', 'push', { homeGoalsFirstHalf: 1, awayGoalsFirstHalf: 0 }],
  ['SOCCER_FIRST_HALF_UNDER_OVER', 'U', 0.75, '3-0', 'half_lost', { homeGoalsFirstHalf: 1, awayGoalsFirstHalf: 0 }],
  // corners and cards are totals over both teams (cards = yellow + red)
  ['SOCCER_CORNERS_UNDER_OVER', 'O', 9.5, '0-0', 'won', { homeCorners: 6, awayCorners: 4 }],
  ['SOCCER_CORNERS_UNDER_OVER', 'U', 10, '0-0', 'push', { homeCorners: 6, awayCorners: 4 }],
  ['SOCCER_CORNERS_UNDER_OVER', 'U', 10.25, '0-0', 'half_won', { homeCorners: 6, awayCorners: 4 }],
  ['SOCCER_CARDS_UNDER_OVER', 'O', 4.5, '0-0', 'won', { homeYellowCards: 2, awayYellowCards: 2, homeRedCards: 1, awayRedCards: 0 }],
  ['SOCCER_CARDS_UNDER_OVER', 'O', 4.5, '0-0', 'lost', { homeYellowCards: 2, awayYellowCards: 2, homeRedCards: 0, awayRedCards: 0 }],
  ['SOCCER_CARDS_UNDER_OVER', 'U', 5, '0-0', 'push', { homeYellowCards: 2, awayYellowCards: 2, homeRedCards: 0, awayRedCards: 1 }],
  // handicap: line applies to home; '2' is the away side at -line
  ['SOCCER_ASIAN_HANDICAP', '1', -0.5, '1-0', 'won'],
  ['SOCCER_ASIAN_HANDICAP', '2', -0.5, '1-0', 'lost'],
  ['SOCCER_ASIAN_HANDICAP', '1', -1, '1-0', 'push'],
  ['SOCCER_ASIAN_HANDICAP', '2', -1, '1-0', 'push'],
  ['SOCCER_ASIAN_HANDICAP', '1', 0, '1-1', 'push'],
  ['SOCCER_ASIAN_HANDICAP', '2', 0, '1-1', 'push'],
  ['SOCCER_ASIAN_HANDICAP', '1', -0.75, '1-0', 'half_won'],
  ['SOCCER_ASIAN_HANDICAP', '2', -0.75, '1-0', 'half_lost'],
  ['SOCCER_ASIAN_HANDICAP', '1', -0.75, '2-0', 'won'],
  ['SOCCER_ASIAN_HANDICAP', '1', -0.25, '1-1', 'half_lost'],
  ['SOCCER_ASIAN_HANDICAP', '2', -0.25, '1-1', 'half_won'],
  ['SOCCER_ASIAN_HANDICAP', '1', 0.25, '1-1', 'half_won'],
  ['SOCCER_ASIAN_HANDICAP', '2', 0.25, '1-1', 'half_lost'],
  ['SOCCER_ASIAN_HANDICAP', '1', 0.75, '0-1', 'half_lost'],
  ['SOCCER_ASIAN_HANDICAP', '2', 0.75, '0-1', 'half_won'],
  ['SOCCER_ASIAN_HANDICAP', '1', 1.25, '0-1', 'half_won'],
  ['SOCCER_ASIAN_HANDICAP', '2', 1.25, '0-1', 'half_lost'],
  ['SOCCER_ASIAN_HANDICAP', '1', -2.25, '4-1', 'won'],
  ['SOCCER_ASIAN_HANDICAP', '1', -2.25, '3-1', 'half_lost'],
  ['SOCCER_ASIAN_HANDICAP', '2', 1.5, '0-2', 'won'],
  ['BASKETBALL_SPREAD', '1', -5.5, '100-94', 'won'],
  ['BASKETBALL_SPREAD', '2', -5.5, '100-95', 'won'],
  ['BASKETBALL_SPREAD', '1', -5, '100-95', 'push'],
  ['TENNIS_SET_HANDICAP', '1', -1.5, '2-1', 'lost'],
  ['TENNIS_SET_HANDICAP', '2', -1.5, '2-1', 'won'],
  ['BASEBALL_RUN_LINE', '2', 1.5, '3-2', 'lost'],
  ['BASEBALL_RUN_LINE', '1', 1.5, '3-4', 'won'],
  ['VOLLEYBALL_SET_HANDICAP', '1', -1.5, '3-1', 'won'],
  ['AMERICAN_FOOTBALL_SPREAD', '2', 3, '24-21', 'lost'],
  ['AMERICAN_FOOTBALL_SPREAD', '1', -3, '24-21', 'push'],
  ['ICE_HOCKEY_PUCK_LINE', '1', -1.5, '3-2', 'lost'],
  ['ICE_HOCKEY_PUCK_LINE', '2', -1.5, '3-2', 'won'],
  ['HANDBALL_HANDICAP', '1', 2.5, '25-27', 'won'],
  // btts
  ['SOCCER_BOTH_TEAMS_TO_SCORE', 'Y', null, '1-1', 'won'],
  ['SOCCER_BOTH_TEAMS_TO_SCORE', 'N', null, '1-1', 'lost'],
  ['SOCCER_BOTH_TEAMS_TO_SCORE', 'Y', null, '2-0', 'lost'],
  ['SOCCER_BOTH_TEAMS_TO_SCORE', 'N', null, '0-0', 'won'],
  // double chance
  ['SOCCER_DOUBLE_CHANCE', '1X', null, '1-1', 'won'],
  ['SOCCER_DOUBLE_CHANCE', '12', null, '1-1', 'lost'],
  ['SOCCER_DOUBLE_CHANCE', 'X2', null, '1-1', 'won'],
  ['SOCCER_DOUBLE_CHANCE', '1X', null, '0-1', 'lost'],
  ['SOCCER_DOUBLE_CHANCE', '12', null, '0-1', 'won'],
  ['SOCCER_DOUBLE_CHANCE', 'X2', null, '2-1', 'lost'],
];

describe('gradeSelection: every market kind', () => {
  for (const [market, code, line, score, detail, over] of MARKET_ROWS) {
    it(`${market} ${code}${line === null ? '' : ` @${line}`} on ${score}${over ? ` ${JSON.stringify(over)}` : ''} -> ${detail}`, () => {
      const g = gradeSelection(sel(market, code, line, stats(score, over), 'completed', true, 1.9));
      expect(g).to.not.equal(null);
      expect(g!.resultDetail).to.equal(detail);
      expect(g!.reasonCode).to.equal('graded');
    });
  }

  it('the table covers every market type of the catalog (all 8 sports)', () => {
    const covered = new Set(MARKET_ROWS.map((r) => r[0]));
    const missing = MARKET_TYPES.map((t) => t.sysname).filter((s) => !covered.has(s));
    expect(missing).to.deep.equal([]);
    expect(new Set(MARKET_TYPES.filter((t) => covered.has(t.sysname)).map((t) => t.sportId)).size).to.equal(8);
  });
});

describe('gradeSelection: result, returnPerUnit and actualReturn per detail', () => {
  const rows: [string, number | null, string, string, number, number, number][] = [
    // code, line, score, result, odds, returnPerUnit, actualReturn
    ['O', 2.5, '2-1', 'won', 1.9, 1.9, 1.9],
    ['U', 2.5, '2-1', 'lost', 1.9, 0, 0],
    ['O', 3, '2-1', 'push', 1.9, 1, 0],
    ['O', 2.75, '2-1', 'won', 1.9, 1.45, 1.9], // half_won maps to won; money is (odds+1)/2
    ['U', 2.75, '2-1', 'lost', 2.1, 0.5, 0], // half_lost maps to lost; half the stake comes back
  ];
  for (const [code, line, score, result, odds, rpu, ar] of rows) {
    it(`SOCCER_UNDER_OVER ${code} @${line} on ${score} at ${odds}: ${result}, return/unit ${rpu}, actualReturn ${ar}`, () => {
      const g = gradeSelection(sel('SOCCER_UNDER_OVER', code, line, stats(score), 'completed', true, odds))!;
      expect(g.result).to.equal(result);
      expect(g.returnPerUnit).to.be.closeTo(rpu, 1e-12);
      expect(g.actualReturn).to.equal(ar);
    });
  }
});

describe("gradeSelection: the contract's settlement table", () => {
  const allMarkets: [string, string, number | null][] = MARKET_TYPES.map((t) => [t.sysname, t.outcomes[0].code, t.kind === 'total' ? 2.5 : t.kind === 'handicap' ? -0.5 : null]);

  it('final score available, prediction correct -> won, actualReturn = odds', () => {
    const g = gradeSelection(sel('SOCCER_MATCH_RESULT', '1', null, stats('2-0'), 'completed', true, 2.35))!;
    expect(g).to.include({ result: 'won', actualReturn: 2.35 });
  });

  it('prediction incorrect -> lost, actualReturn = 0', () => {
    const g = gradeSelection(sel('SOCCER_MATCH_RESULT', '2', null, stats('2-0'), 'completed', true, 2.35))!;
    expect(g).to.include({ result: 'lost', actualReturn: 0, returnPerUnit: 0 });
  });

  it('line hit exactly (over/under) -> push, actualReturn 0, stake refunded', () => {
    for (const code of ['O', 'U']) {
      const g = gradeSelection(sel('SOCCER_UNDER_OVER', code, 2, stats('1-1'), 'completed', true, 1.8))!;
      expect(g).to.include({ result: 'push', resultDetail: 'push', actualReturn: 0, returnPerUnit: 1 });
    }
  });

  it('adjusted score equals spread (handicap) -> push', () => {
    for (const code of ['1', '2']) {
      const g = gradeSelection(sel('BASKETBALL_SPREAD', code, 3, stats('97-100')))!;
      expect(g.result).to.equal('push');
    }
  });

  const pushAll: [string, () => ReturnType<typeof sel> extends infer S ? Omit<S & object, 'betTypeSysname' | 'code' | 'line'> : never, string][] = [
    ['homeGoals null', () => ({ stats: stats('0-0', { homeGoals: null }), endState: 'completed', started: true, odds: 2 }), 'missing_score'],
    ['awayGoals null', () => ({ stats: stats('0-0', { awayGoals: null }), endState: 'completed', started: true, odds: 2 }), 'missing_score'],
    ['postponed after start', () => ({ stats: stats('1-0'), endState: 'postponed', started: true, odds: 2 }), 'void_postponed'],
    ['abandoned (void flag)', () => ({ stats: stats('3-0'), endState: 'abandoned', started: true, odds: 2 }), 'void_abandoned'],
    ['abandoned with no stats at all', () => ({ stats: EMPTY_STATS, endState: 'abandoned', started: true, odds: 2 }), 'void_abandoned'],
  ];
  for (const [name, make, reason] of pushAll) {
    it(`${name} -> push for ALL bets of the event, corners/cards/first half included`, () => {
      for (const [m, code, line] of allMarkets) {
        const g = gradeSelection({ betTypeSysname: m, code, line, ...make() });
        expect(g, m).to.not.equal(null);
        expect(g!.result, m).to.equal('push');
        expect(g!.reasonCode, m).to.equal(reason);
        expect(g!.actualReturn, m).to.equal(0);
        expect(g!.returnPerUnit, m).to.equal(1);
      }
    });
  }

  const partial: [string, Record<string, null>, string, string][] = [
    ['homeCorners missing', { homeCorners: null }, 'SOCCER_CORNERS_UNDER_OVER', 'missing_corners'],
    ['awayCorners missing', { awayCorners: null }, 'SOCCER_CORNERS_UNDER_OVER', 'missing_corners'],
    ['homeYellowCards missing', { homeYellowCards: null }, 'SOCCER_CARDS_UNDER_OVER', 'missing_cards'],
    ['awayRedCards missing', { awayRedCards: null }, 'SOCCER_CARDS_UNDER_OVER', 'missing_cards'],
    ['homeGoalsFirstHalf missing', { homeGoalsFirstHalf: null }, 'SOCCER_FIRST_HALF_RESULT', 'missing_first_half'],
    ['awayGoalsFirstHalf missing', { awayGoalsFirstHalf: null }, 'SOCCER_FIRST_HALF_UNDER_OVER', 'missing_first_half'],
  ];
  for (const [name, over, affected, reason] of partial) {
    it(`${name} -> push only the affected markets (${affected} family); others settle normally`, () => {
      // 2-0 full time, first half 1-0, 10 corners, 6 cards: nothing else lands on a line
      const s = stats('2-0', { homeGoalsFirstHalf: 1, awayGoalsFirstHalf: 0, homeCorners: 6, awayCorners: 4, homeYellowCards: 3, awayYellowCards: 3, ...over });
      for (const [m, code, line] of allMarkets) {
        const g = gradeSelection({ betTypeSysname: m, code, line, stats: s, endState: 'completed', started: true, odds: 2 })!;
        const sameFamily = (affected.includes('FIRST_HALF') && m.includes('FIRST_HALF')) || m === affected;
        if (sameFamily) expect(g, m).to.include({ result: 'push', reasonCode: reason });
        else expect(g.reasonCode, m).to.equal('graded');
      }
    });
  }

  it('never started -> no settlement (null), whatever the end state and data', () => {
    for (const endState of ['completed', 'postponed', 'abandoned'] as const) {
      for (const [m, code, line] of allMarkets) {
        expect(gradeSelection({ betTypeSysname: m, code, line, stats: stats('1-0'), endState, started: false, odds: 2 }), m).to.equal(null);
      }
    }
  });
});

describe('gradeSelection: invalid bets throw GradingError', () => {
  const bad: [string, Partial<ReturnType<typeof sel>>, string][] = [
    ['unknown market', { betTypeSysname: 'SOCCER_EXACT_SCORE' }, 'UNKNOWN_MARKET'],
    ['unknown code', { code: 'X' }, 'UNKNOWN_CODE'],
    ['code of another kind', { code: '1X' }, 'UNKNOWN_CODE'],
    ['missing line', { line: null }, 'MISSING_LINE'],
    ['line not in quarters', { line: 2.3 }, 'INVALID_LINE'],
    ['non-finite line', { line: Number.NaN }, 'INVALID_LINE'],
    ['odds below 1', { odds: 0.5 }, 'INVALID_ODDS'],
    ['fractional count', { stats: stats('1-0', { homeGoals: 1.5 }) }, 'INVALID_STATS'],
    ['negative count', { stats: stats('1-0', { awayGoals: -1 }) }, 'INVALID_STATS'],
  ];
  for (const [name, over, code] of bad) {
    it(`${name} -> ${code}`, () => {
      const input = { ...sel('SOCCER_UNDER_OVER', 'O', 2.5, stats('1-0')), ...over };
      expect(() => gradeSelection(input))
        .to.throw(GradingError)
        .with.property('code', code);
    });
  }

  it('an invalid bet throws even when the event never started', () => {
    expect(() => gradeSelection(sel('NOPE', 'O', 2.5, stats('1-0'), 'completed', false))).to.throw(GradingError);
  });

  it('a line sent with a lineless market is ignored', () => {
    expect(gradeSelection(sel('SOCCER_MATCH_RESULT', '1', 0, stats('1-0')))!.result).to.equal('won');
  });
});
