import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { blendedProbabilities, placeBets, runBacktest, walkForward, type BacktestMatch } from '../../../shared/research/backtestCore';
import { listSeasonFiles, loadSeasonFiles, seasonKey } from '../../../shared/platform/data/footballData';
import { mulberry32 } from '../../../shared/domain/ai/random';

// ../shared/data beside the repository; a git worktree (wt/<name>) sits one level deeper.
const DATA_DIRS = [path.resolve(__dirname, '../../../../shared/data/football-data'), path.resolve(__dirname, '../../../../../shared/data/football-data')];
const DATA = DATA_DIRS.find((d) => existsSync(d));
const ROOT = path.resolve(__dirname, '../../..');
const MIXED = { dixonColes: 0.3, ratings: 0.3 };
/** Columns of prices taken at the close (football-data: a C before the outcome letter). */
const CLOSING_COLUMN = /^(PSC|B365C|BWC|IWC|WHC|VCC|MaxC|AvgC|PC)[HDA>]|^(B365C|PC|MaxC|AvgC)[<>]|^AHCh$|CAH[HA]$/;

describe('backtest on a real season (smoke)', function () {
  // Four seasons of history (2014/15-2017/18) before the scored 2018/19: a few seconds of CPU.
  this.timeout(120000);
  let matches: BacktestMatch[] = [];

  before(function () {
    if (!DATA) {
      console.log(`    skipped: no football-data folder at ${DATA_DIRS.join(' or ')}`);
      this.skip();
    }
    matches = loadSeasonFiles(listSeasonFiles(DATA, 'E0_').filter((f) => seasonKey(f) >= 2014 && seasonKey(f) <= 2018)).map((m) => ({ ...m, season: seasonKey(m.file) }));
  });

  it('scores EPL 2018/19 close to the Pinnacle closing line, with sane calibration, and shops prices across books', function () {
    const r = runBacktest(matches, { fromSeason: 2018, toSeason: 2018, minEdge: 2, seed: 7, bootstrapResamples: 200 });
    expect(r.matches).to.be.within(370, 380);
    // Better than the close would mean a leak; far worse would mean a broken model.
    expect(r.scores.model.rps).to.be.within(r.scores.close.rps - 0.001, r.scores.close.rps + 0.006);
    expect(r.scores.model.logLoss).to.be.within(r.scores.close.logLoss - 0.004, r.scores.close.logLoss + 0.03);
    expect(r.scores.dixonColes.rps).to.be.below(0.23);
    for (const bin of r.calibration.model) expect(Math.abs(bin.observed - bin.predicted), `decile at ${bin.predicted}`).to.be.below(4 * bin.standardError + 0.01);
    expect(r.warmup.seasons).to.deep.equal([2016, 2017]);
    // Pinnacle is the sharpest book of these seasons; the bets are at other books' prices.
    expect(r.openingSources.PS).to.be.greaterThan(300);
    expect(r.clv.bets).to.be.greaterThan(5);
    for (const b of r.bets) {
      expect(b.edgePercentage).to.be.at.least(2);
      expect(b.odds * b.probability - 1).to.be.closeTo(b.edgePercentage / 100, 1e-9);
    }
    expect(r.warmup.priceMoveScale).to.be.within(0.02, 0.08);
  });

  it('no lookahead: shuffling later results and closing prices leaves earlier forecasts unchanged', function () {
    const cutoff = new Date(Date.UTC(2019, 0, 1));
    const rng = mulberry32(3);
    const later = matches.map((m, i) => ({ m, i })).filter(({ m }) => m.kickoff >= cutoff);
    const shuffled = matches.map((m) => ({ ...m, odds: { ...m.odds } }));
    for (const { i } of later) {
      const j = later[Math.floor(rng() * later.length)].i;
      shuffled[i].fthg = matches[j].fthg;
      shuffled[i].ftag = matches[j].ftag;
      shuffled[i].odds.PSCH = matches[j].odds.PSCH;
      shuffled[i].odds.PSCA = matches[j].odds.PSCA;
    }
    const a = walkForward(matches, { toSeason: 2018 }).filter((f) => f.season === 2018);
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

  it("no lookahead: a match's own closing prices never change which bets are placed, only their CLV", function () {
    const season = matches.filter((m) => m.season >= 2017);
    const rng = mulberry32(11);
    const scrambled = season.map((m) => {
      const odds: Record<string, number> = {};
      for (const [k, v] of Object.entries(m.odds)) odds[k] = CLOSING_COLUMN.test(k) ? 1.01 + 20 * rng() : v;
      return { ...m, odds };
    });
    // Pinnacle's close may enter LATER matches' price ratings (after kickoff, legitimately): the
    // decisions are compared under market-only weights, which do not read those ratings.
    const decisions = (ms: BacktestMatch[]) =>
      placeBets(
        walkForward(ms, { toSeason: 2018 }).filter((f) => f.season === 2018),
        { dixonColes: 0, ratings: 0 },
        2,
        0.05,
      ).map((b) => [b.match, b.outcome, b.book, b.odds, b.edgePercentage, b.confidence, b.kellyStake]);
    const original = decisions(season);
    expect(original.length).to.be.greaterThan(5);
    expect(decisions(scrambled)).to.deep.equal(original);
    expect(Object.keys(season[0].odds).filter((k) => CLOSING_COLUMN.test(k)).length).to.be.greaterThan(0);
  });

  it("the CLI runs one season end to end and writes its chart (CI: the command must finish within this test's two minutes)", function () {
    const out = mkdtempSync(path.join(tmpdir(), 'backtest-'));
    try {
      const run = spawnSync(
        process.execPath,
        ['--require', 'tsx/cjs', path.join(ROOT, 'scripts/backtest.ts'), '--data', DATA!, '--from', '2022', '--to', '2022', '--history', '3', '--resamples', '200', '--out', out, '--json'],
        {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: 110000,
        },
      );
      expect(run.status, run.stderr).to.equal(0);
      const report = JSON.parse(run.stdout);
      expect(report.matches).to.be.within(370, 380);
      expect(report.warmup.seasons).to.deep.equal([2021]);
      expect(report.clv.byConfidence).to.have.keys('High', 'Medium', 'Low');
      expect(readFileSync(report.chart, 'utf8')).to.match(/^<svg/);
      // A bad argument is named, with a non-zero exit.
      const bad = spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'scripts/backtest.ts'), '--data', DATA!, '--books', 'PS,Nope'], { cwd: ROOT, encoding: 'utf8' });
      expect(bad.status).to.equal(2);
      expect(bad.stderr).to.contain('--books');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
