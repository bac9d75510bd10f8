import { expect } from 'chai';
import type { ClosingLine } from '../../../shared/domain/ingest/closing';
import { replayFidelity, type ReplayedEvent } from '../../../shared/platform/providers/replay/fidelity';
import { loadReplaySeasons, type ReplayMatch } from '../../../shared/platform/providers/replay/season';
import { dataFolder, hasSeason, seasonLines } from '../../helpers/footballData';

const SEASON = 'E0_2223';

/** The closing line a faithful replay captures: every book's closing price of the file. */
function fileClosingLine(m: ReplayMatch): ClosingLine {
  return {
    capturedAt: new Date(m.kickoff),
    markets: m.markets.map((fm, n) => ({
      id: `m${n}`,
      betTypeSysname: fm.betTypeSysname,
      line: fm.line,
      betItems: fm.codes.map((code, i) => ({ id: `m${n}-${code}`, code, price: 2, bookPrices: Object.fromEntries([...fm.close].map(([book, prices]) => [book, prices[i]])) })),
    })),
  };
}

function storedAsPlayed(m: ReplayMatch): ReplayedEvent {
  const c = m.counts;
  const stats = {
    homeGoals: c.fthg,
    awayGoals: c.ftag,
    homeGoalsFirstHalf: null,
    awayGoalsFirstHalf: null,
    homeCorners: c.homeCorners,
    awayCorners: c.awayCorners,
    homeYellowCards: c.homeYellow,
    awayYellowCards: c.awayYellow,
    homeRedCards: c.homeRed,
    awayRedCards: c.awayRed,
  };
  return { _id: m.eventId, status: 'completed', stats, closingLine: fileClosingLine(m) };
}

describe('replay fidelity: the stored matches against the files (pure)', function () {
  let match: ReplayMatch;
  before(function () {
    if (!hasSeason(SEASON)) return this.skip();
    const folder = dataFolder({ [`${SEASON}.csv`]: seasonLines(SEASON, 1).join('\n') });
    [match] = loadReplaySeasons(folder, [SEASON], { warn: () => undefined });
  });

  const pinnacleHome = (m: ReplayMatch) => m.markets.find((x) => x.betTypeSysname === 'SOCCER_MATCH_RESULT')!.close.get('pinnacle')![0];
  const cases: [name: string, edit: (e: ReplayedEvent, m: ReplayMatch) => ReplayedEvent, want: { ended: number; countsEqual: number; closingEqual: number }, difference: RegExp | null][] = [
    ['happy: played as the file says', (e) => e, { ended: 1, countsEqual: 1, closingEqual: 1 }, null],
    [
      'error: a closing price of an earlier step (a late poll)',
      (e, m) => {
        const mr = e.closingLine!.markets.find((x) => x.betTypeSysname === 'SOCCER_MATCH_RESULT')!;
        mr.betItems[0].bookPrices.pinnacle = Math.round((pinnacleHome(m) + 0.07) * 100) / 100;
        return e;
      },
      { ended: 1, countsEqual: 1, closingEqual: 0 },
      /SOCCER_MATCH_RESULT 1 pinnacle closed at [\d.]+ \(file [\d.]+\)/,
    ],
    ['error: no closing line (first seen after kickoff)', (e) => ({ ...e, closingLine: null }), { ended: 1, countsEqual: 1, closingEqual: 0 }, /no closing line captured/],
    [
      'error: a market missing from the closing line',
      (e) => ({ ...e, closingLine: { ...e.closingLine!, markets: e.closingLine!.markets.filter((x) => x.betTypeSysname !== 'SOCCER_UNDER_OVER') } }),
      { ended: 1, countsEqual: 1, closingEqual: 0 },
      /SOCCER_UNDER_OVER 2\.5 not in the closing line/,
    ],
    [
      'error: a corner count that is not the file',
      (e, m) => ({ ...e, stats: e.stats && { ...e.stats, homeCorners: (m.counts.homeCorners ?? 0) + 1 } }),
      { ended: 1, countsEqual: 0, closingEqual: 1 },
      /homeCorners \d+ \(file \d+\)/,
    ],
    ['error: not ended', (e) => ({ ...e, status: 'live' }), { ended: 0, countsEqual: 0, closingEqual: 0 }, /stored as live/],
  ];
  for (const [name, edit, want, difference] of cases) {
    it(name, () => {
      const report = replayFidelity([match], [edit(storedAsPlayed(match), match)]);
      expect(report).to.include({ matches: 1, ...want });
      if (difference === null) expect(report.differences).to.deep.equal([]);
      else expect(report.differences.join('\n')).to.match(difference).and.to.include(`${SEASON} row 2 ${match.homeTeam} v ${match.awayTeam}`);
    });
  }

  it('edge: a match never stored counts as not ended; differences are capped at `keep`', () => {
    const report = replayFidelity([match, match, match], [], 2);
    expect(report).to.include({ matches: 3, ended: 0 });
    expect(report.differences).to.have.length(2);
  });
});
