import { expect } from 'chai';
import { canonicalize } from '../../../shared/domain/commitments/canonical';
import { BACKTEST_LIKE, breakdown, chainBets, firstBetPerOutcome } from '../../../shared/domain/trackRecord/breakdown';

const KICKOFF = '2018-08-11T14:00:00.000Z';
const hoursBefore = (h: number) => new Date(Date.parse(KICKOFF) - h * 3_600_000).toISOString();
const rec = (id: string, o: { event?: string; book?: string; odds?: number; code?: string; hours: number; competition?: string; confidence?: string; market?: string }) =>
  canonicalize({
    v: 1,
    type: 'recommendation',
    id,
    event: { id: o.event ?? 'e1', home: 'Watford', away: 'Brighton', competition: o.competition ?? 'Premier League', startAt: KICKOFF },
    market: { type: o.market ?? 'SOCCER_MATCH_RESULT', line: null },
    outcome: { code: o.code ?? '1', name: 'x' },
    bookmaker: o.book ?? 'bet365',
    odds: o.odds ?? 2,
    probability: 0.5,
    confidence: o.confidence ?? 'Low',
    createdAt: hoursBefore(o.hours),
  });
const settled = (id: string, result: string, rpu: number, clv: number | null, version = 0) =>
  canonicalize({
    v: 1,
    type: 'recommendation-settlement',
    id,
    resultVersion: version,
    result,
    resultDetail: result,
    returnPerUnit: rpu,
    closingOdds: clv === null ? null : 2,
    clv,
    settledAt: KICKOFF,
  });

describe('the record broken down from the chain alone (pure)', () => {
  const chain = [
    rec('a', { hours: 60, odds: 2.2 }),
    rec('b', { hours: 10, odds: 2.1 }), // the same outcome again, later, at new odds
    rec('c', { hours: 30, code: '2', book: 'pinnacle', event: 'e2', competition: 'La Liga', confidence: 'High' }),
    rec('d', { hours: 2, event: 'e3' }), // never settled: not a bet of the record
    rec('e', { hours: 70, event: 'e4', code: 'OVER', market: 'SOCCER_TOTAL_GOALS', book: 'bwin' }), // early, but not the match result
    settled('a', 'won', 2.2, 0.1),
    settled('b', 'won', 2.1, 0.05),
    settled('c', 'won', 2, -0.02),
    settled('c', 'lost', 0, -0.02, 1), // a correction: the later link wins
    settled('e', 'lost', 0, 0.01),
  ];
  const bets = chainBets(chain);

  it('happy: settled recommendations only, the latest settlement of each', () => {
    expect(bets.map((b) => [b.id, b.result, b.returnPerUnit, b.clv])).to.deep.equal([
      ['a', 'won', 2.2, 0.1],
      ['b', 'won', 2.1, 0.05],
      ['c', 'lost', 0, -0.02],
      ['e', 'lost', 0, 0.01],
    ]);
    expect(bets.map((b) => b.hoursBeforeKickoff)).to.deep.equal([60, 10, 30, 70]);
  });
  it('happy: the first bet per outcome is the earliest written', () => expect(firstBetPerOutcome(bets).map((b) => b.id)).to.deep.equal(['e', 'a', 'c']));
  it('happy: groups sum to the whole, each summarized like the track record', () => {
    const rows = breakdown(bets);
    const row = (by: string, group: string) => rows.find((r) => r.by === by && r.group === group)!;
    expect(row('all', 'every settled recommendation')).to.include({ bets: 4, wins: 2, losses: 2, profit: 0.3 });
    expect(row('all', 'first bet per outcome')).to.include({ bets: 3, profit: -0.8 });
    // the backtest's bets: the match result, first per outcome, at the opening prices (not e: another market; not b: re-issued; not c: 30 h)
    expect(row('like the backtest', BACKTEST_LIKE.group)).to.include({ bets: 1, wins: 1, profit: 1.2 });
    expect(row('bookmaker', 'bet365').clv).to.deep.include({ bets: 2, mean: 0.075, beatCloseShare: 1 });
    expect(row('competition', 'La Liga')).to.include({ bets: 1, losses: 1 });
    expect(rows.filter((r) => r.by === 'written before kickoff').map((r) => [r.group, r.bets])).to.deep.equal([
      ['48 h or more', 2],
      ['24 to 48 h', 1],
      ['6 to 24 h', 1],
    ]);
    expect(rows.filter((r) => r.by === 'confidence').map((r) => r.group)).to.deep.equal(['High', 'Low']);
  });
  it('edge: an empty chain has an empty record', () => expect(breakdown(chainBets([]))[0]).to.include({ bets: 0, roi: null }));
});
