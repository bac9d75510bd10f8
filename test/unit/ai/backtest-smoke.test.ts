import { expect } from 'chai';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { blendedProbabilities, runBacktest, walkForward, type BacktestMatch } from '../../../shared/ai/backtestCore';
import { listSeasonFiles, loadSeasonFiles, seasonKey } from '../../../shared/data/footballData';
import { mulberry32 } from '../../../shared/ai/random';

// ../shared/data beside the repository; a git worktree (wt/<name>) sits one level deeper.
const DATA_DIRS = [path.resolve(__dirname, '../../../../shared/data/football-data'), path.resolve(__dirname, '../../../../../shared/data/football-data')];
const DATA = DATA_DIRS.find((d) => existsSync(d));
const MIXED = { dixonColes: 0.3, ratings: 0.3 };

describe('backtest on a real season (smoke)', function () {
  // Walk-forward replays every season since 2000/01: seconds of CPU, more on a loaded machine.
  this.timeout(300000);
  let matches: BacktestMatch[] = [];

  before(function () {
    if (!DATA) {
      console.log(`    skipped: no football-data folder at ${DATA_DIRS.join(' or ')}`);
      this.skip();
    }
    matches = loadSeasonFiles(listSeasonFiles(DATA!, 'E0_').filter((f) => seasonKey(f) <= 2018)).map((m) => ({ ...m, season: seasonKey(m.file) }));
  });

  it('scores EPL 2018/19 close to the Pinnacle closing line, with sane calibration', function () {
    const r = runBacktest(matches, { fromSeason: 2018, toSeason: 2018, minEdge: 2, seed: 7, bootstrapResamples: 200 });
    expect(r.matches).to.be.within(370, 380);
    // Better than the close would mean a leak; far worse would mean a broken model.
    expect(r.scores.model.rps).to.be.within(r.scores.close.rps - 0.001, r.scores.close.rps + 0.006);
    expect(r.scores.model.logLoss).to.be.within(r.scores.close.logLoss - 0.004, r.scores.close.logLoss + 0.03);
    expect(r.scores.dixonColes.rps).to.be.below(0.23);
    for (const bin of r.calibration.model) expect(Math.abs(bin.observed - bin.predicted), `decile at ${bin.predicted}`).to.be.below(4 * bin.standardError + 0.01);
    expect(r.warmup.seasons).to.not.include(2018);
  });

  it('no lookahead: shuffling later results and closing prices leaves earlier forecasts unchanged', function () {
    const season = matches.filter((m) => m.season <= 2018);
    const cutoff = new Date(Date.UTC(2019, 0, 1));
    const rng = mulberry32(3);
    const later = season.map((m, i) => ({ m, i })).filter(({ m }) => m.kickoff >= cutoff);
    const shuffled = season.map((m) => ({ ...m, odds: { ...m.odds } }));
    for (const { i } of later) {
      const j = later[Math.floor(rng() * later.length)].i;
      shuffled[i].fthg = season[j].fthg;
      shuffled[i].ftag = season[j].ftag;
      shuffled[i].odds.PSCH = season[j].odds.PSCH;
      shuffled[i].odds.PSCA = season[j].odds.PSCA;
    }
    const a = walkForward(season, { toSeason: 2018 }).filter((f) => f.season === 2018);
    const b = walkForward(shuffled, { toSeason: 2018 }).filter((f) => f.season === 2018);
    const before = (fs: typeof a) => fs.filter((f) => f.kickoff < cutoff);
    expect(before(a).length).to.be.greaterThan(150);
    expect(before(b).length).to.equal(before(a).length);
    before(a).forEach((f, k) => {
      expect(blendedProbabilities(before(b)[k], MIXED)).to.deep.equal(blendedProbabilities(f, MIXED));
    });
    // And the shuffle did reach the later forecasts' Dixon-Coles inputs (the test can fail).
    const after = (fs: typeof a) => fs.filter((f) => f.kickoff >= new Date(Date.UTC(2019, 1, 1)));
    const moved = after(a).some((f, k) => f.lambdaDc[0] !== after(b)[k].lambdaDc[0]) && after(a).some((f, k) => f.lambdaRatings[0] !== after(b)[k].lambdaRatings[0]);
    expect(moved).to.equal(true);
  });
});
