/**
 * Walk-forward backtest of the soccer model on football-data.co.uk season files.
 *   npm run backtest -- --data <dir> [--league E0] [--from 2019] [--to 2022] [--out <dir>]
 *                       [--min-edge 2] [--seed 20240601] [--json]
 *                       [--books PS,B365,BW,IW,WH,VC,...]  bookmakers whose pre-kickoff prices may be bet (Max = market maximum)
 *                       [--history N]          load only N >= 3 seasons before --from: history, burn-in, warm-up (default: all)
 *                       [--resamples 1000]     bootstrap resamples of every interval
 *                       [--blend dc,ratings]   diagnostic: fixed blend weights instead of the fitted ones
 * Exit 2 on a bad argument (named in the message), 1 on any other failure.
 */
import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AGGREGATE_BOOKS, DEFAULT_BET_BOOKS, NAMED_BOOKS, runBacktest, type BacktestReport } from '../shared/research/backtestCore';
import { backtestSvg } from '../shared/research/backtestChart';
import { listSeasonFiles, loadSeasonFiles, seasonKey } from '../shared/platform/data/footballData';

interface Args {
  data: string;
  league: string;
  from: number;
  to: number | null;
  out: string;
  minEdge: number;
  seed: number;
  json: boolean;
  blend: { dixonColes: number; ratings: number } | null;
  books: string[];
  history: number | null;
  resamples: number;
}

class ArgError extends Error {}

/** The integer options: the field each sets, its least and greatest value. */
const INTEGER_OPTIONS: Record<string, [field: 'from' | 'to' | 'seed' | 'history' | 'resamples', min: number, max: number]> = {
  '--from': ['from', 2000, 2100],
  '--to': ['to', 2000, 2100],
  '--seed': ['seed', 0, 2 ** 31 - 1],
  '--history': ['history', 3, 30],
  '--resamples': ['resamples', 100, 100000],
};

const REPO_ROOT = resolve(__dirname, '..');
/** ../shared/data beside the repository; a git worktree one level deeper (wt/<name>) looks two up. */
const DEFAULT_DATA =
  [resolve(REPO_ROOT, '../shared/data/football-data'), resolve(REPO_ROOT, '../../shared/data/football-data')].find((d) => existsSync(d)) ?? resolve(REPO_ROOT, '../shared/data/football-data');

export function parseArgs(argv: string[]): Args {
  const args: Args = {
    data: DEFAULT_DATA,
    league: 'E0',
    from: 2019,
    to: null,
    out: resolve(REPO_ROOT, 'backtest-out'),
    minEdge: 2,
    seed: 20240601,
    json: false,
    blend: null,
    books: [...DEFAULT_BET_BOOKS],
    history: null,
    resamples: 1000,
  };
  const int = (name: string, v: string | undefined, min: number, max: number) => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < min || n > max) throw new ArgError(`--${name} must be an integer between ${min} and ${max}, got ${v ?? '(nothing)'}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new ArgError(`${a} needs a value`);
      return v;
    };
    const integer = INTEGER_OPTIONS[a];
    if (integer) {
      const [field, min, max] = integer;
      args[field] = int(field, argv[++i], min, max);
      continue;
    }
    switch (a) {
      case '--data':
        args.data = resolve(value());
        break;
      case '--league': {
        const v = value();
        if (!/^[A-Z0-9]{1,4}$/i.test(v)) throw new ArgError(`--league must be a division code such as E0 or SP1, got ${v}`);
        args.league = v;
        break;
      }
      case '--out':
        args.out = resolve(value());
        break;
      case '--min-edge': {
        const v = value();
        const n = Number(v);
        if (!Number.isFinite(n) || n < 0 || n > 100) throw new ArgError(`--min-edge must be a percentage between 0 and 100, got ${v}`);
        args.minEdge = n;
        break;
      }
      case '--blend': {
        const v = value();
        const parts = v.split(',').map(Number);
        if (parts.length !== 2 || parts.some((x) => !(x >= 0 && x <= 1)) || parts[0] + parts[1] > 1)
          throw new ArgError(`--blend must be "dixonColes,ratings" weights in [0, 1] summing to at most 1, got ${v}`);
        args.blend = { dixonColes: parts[0], ratings: parts[1] };
        break;
      }
      case '--books': {
        const v = value();
        const known = [...NAMED_BOOKS, ...Object.keys(AGGREGATE_BOOKS)];
        const list = v.split(',').map((b) => b.trim());
        const bad = list.find((b) => !known.includes(b));
        if (bad !== undefined || list.length === 0) throw new ArgError(`--books must be a comma list of ${known.join(', ')}, got ${bad ?? v}`);
        args.books = [...new Set(list)];
        break;
      }
      case '--json':
        args.json = true;
        break;
      default:
        throw new ArgError(`unknown argument ${a} (expected --data --league --from --to --out --min-edge --seed --books --history --resamples --blend --json)`);
    }
  }
  if (!existsSync(args.data)) throw new ArgError(`--data ${args.data} does not exist`);
  if (args.to !== null && args.to < args.from) throw new ArgError(`--to ${args.to} is before --from ${args.from}`);
  return args;
}

function progressBar(done: number, total: number): void {
  if (!process.stderr.isTTY && done !== total && done % 100 !== 0) return;
  const width = 30;
  const filled = Math.round((done / Math.max(1, total)) * width);
  process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} match days${done === total ? '\n' : ''}`);
}

const f4 = (x: number) => x.toFixed(4);
const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
const interval = (i: { mean: number; low: number; high: number }, fmt: (x: number) => string) => `${fmt(i.mean)} [${fmt(i.low)}, ${fmt(i.high)}]`;

export function formatReport(r: BacktestReport, league: string, seconds: number): string {
  const lines: string[] = [];
  const s = r.scores;
  lines.push(
    `Backtest ${league} ${r.seasons.from}/${String((r.seasons.from + 1) % 100).padStart(2, '0')} to ${r.seasons.to}/${String((r.seasons.to + 1) % 100).padStart(2, '0')}: ${r.matches} matches (opening: ${Object.entries(
      r.openingSources,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  );
  lines.push(
    `Blend weights fitted on warm-up ${r.warmup.seasons[0]}-${r.warmup.seasons.at(-1)} (${r.warmup.matches} matches): Dixon-Coles ${r.warmup.blendWeights.dixonColes}, price ratings ${r.warmup.blendWeights.ratings}, opening market the rest${r.warmup.usedWeights !== r.warmup.blendWeights ? ` (OVERRIDDEN by --blend: ${r.warmup.usedWeights.dixonColes}, ${r.warmup.usedWeights.ratings})` : ''}`,
  );
  lines.push('');
  lines.push('                    RPS      log-loss  Brier');
  for (const [name, v] of [
    ['model', s.model],
    ['Dixon-Coles only', s.dixonColes],
    ['price ratings', s.ratings],
    ['opening (Shin)', s.openShin],
    ['opening (prop.)', s.open],
    ['closing (prop.)', s.close],
  ] as const)
    lines.push(`${name.padEnd(18)}  ${f4(v.rps)}   ${f4(v.logLoss)}    ${f4(v.brier)}`);
  const d = r.differences;
  lines.push(`model - closing:  RPS ${interval(d.modelMinusClose.rps, f4)}  log-loss ${interval(d.modelMinusClose.logLoss, f4)}  Brier ${interval(d.modelMinusClose.brier, f4)}`);
  lines.push(`model - opening:  RPS ${interval(d.modelMinusOpen.rps, f4)}  log-loss ${interval(d.modelMinusOpen.logLoss, f4)}  Brier ${interval(d.modelMinusOpen.brier, f4)}`);
  lines.push('');
  lines.push('Calibration (deciles of H/D/A probabilities)   predicted  observed  gap(pts)  noise(1 s.e.)  count');
  for (const b of r.calibration.model)
    lines.push(
      `                                                ${pct(b.predicted).padStart(8)}  ${pct(b.observed).padStart(8)}  ${(100 * (b.observed - b.predicted)).toFixed(2).padStart(6)}    ${(100 * b.standardError).toFixed(2).padStart(6)}       ${b.count}`,
    );
  lines.push(`largest decile gap: model ${r.calibration.modelMaxGapPoints.toFixed(2)} pts, Pinnacle closing ${r.calibration.closeMaxGapPoints.toFixed(2)} pts`);
  lines.push('');
  const band = (name: string, b: { bets: number; mean: number; standardError: number; beatCloseShare: number; flatRoi: { mean: number; low: number; high: number } }) =>
    `  ${name.padEnd(6)} ${String(b.bets).padStart(5)} bets  mean CLV ${b.bets ? pct(b.mean) : '-'} (s.e. ${b.bets > 1 ? pct(b.standardError) : '-'})  beat close ${b.bets ? pct(b.beatCloseShare) : '-'}  flat ROI ${b.bets ? interval(b.flatRoi, pct) : '-'}`;
  const c = r.clv;
  lines.push(`Bets: best pre-kickoff price among ${r.books.join(', ')} beating the fair price by >= min-edge; CLV against Pinnacle closing de-vigged by Shin`);
  lines.push(
    `  price-move scale fitted on warm-up: ${r.warmup.priceMoveScale.toFixed(4)}; bets by bookmaker: ${
      Object.entries(c.betsByBook)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }`,
  );
  lines.push(
    `Closing-line value: ${c.bets} bets, mean ${c.bets ? pct(c.mean) : '-'} (s.e. ${c.bets > 1 ? pct(c.standardError) : '-'}), beat the close ${c.bets ? pct(c.beatCloseShare) : '-'}; against the proportional close ${c.bets ? pct(c.proportionalMean) : '-'}`,
  );
  for (const name of ['High', 'Medium', 'Low'] as const) lines.push(band(name, c.byConfidence[name]));
  const wc = r.warmup.clv;
  lines.push(
    `Same rule on this run's warm-up seasons (in sample for the price-move scale; the confidence thresholds were chosen on EPL 2013/14-2018/19): ${wc.bets} bets, mean CLV ${wc.bets ? pct(wc.mean) : '-'}`,
  );
  for (const name of ['High', 'Medium', 'Low'] as const) lines.push(band(name, wc.byConfidence[name]));
  const fl = r.roi.flat;
  const k = r.roi.kelly;
  lines.push(`Flat stakes:   ${fl.bets} bets, profit ${fl.profit.toFixed(2)} units, ROI ${interval(fl.roi, pct)}, max drawdown ${fl.maxDrawdownUnits.toFixed(2)} units`);
  lines.push(`Quarter Kelly: staked ${k.staked.toFixed(3)} bankrolls, final bankroll ${k.finalBankroll.toFixed(3)}, ROI ${interval(k.roi, pct)}, max drawdown ${pct(k.maxDrawdownShare)}`);
  lines.push(`(${seconds.toFixed(1)} s)`);
  return lines.join('\n');
}

function main(): number {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof ArgError) {
      process.stderr.write(`backtest: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const files = listSeasonFiles(args.data, `${args.league}_`);
  if (files.length === 0) {
    process.stderr.write(`backtest: --league ${args.league}: no ${args.league}_*.csv files in ${args.data}\n`);
    return 2;
  }
  const seasons = files.map(seasonKey);
  const to = args.to ?? Math.max(...seasons);
  if (!seasons.includes(args.from) || !seasons.includes(to)) {
    process.stderr.write(`backtest: --from/--to must be seasons present in ${args.data} for ${args.league} (${Math.min(...seasons)}..${Math.max(...seasons)})\n`);
    return 2;
  }
  if (args.from <= Math.min(...seasons) + 1) {
    process.stderr.write(`backtest: --from ${args.from} leaves no warm-up season (data starts ${Math.min(...seasons)})\n`);
    return 2;
  }
  const t0 = Date.now();
  const firstLoaded = args.history === null ? -Infinity : args.from - args.history;
  const matches = loadSeasonFiles(files.filter((f) => seasonKey(f) <= to && seasonKey(f) >= firstLoaded)).map((m) => ({ ...m, season: seasonKey(m.file) }));
  const report = runBacktest(matches, {
    fromSeason: args.from,
    toSeason: to,
    minEdge: args.minEdge,
    seed: args.seed,
    books: args.books,
    bootstrapResamples: args.resamples,
    blendOverride: args.blend ?? undefined,
    onProgress: progressBar,
  });
  const seconds = (Date.now() - t0) / 1000;
  mkdirSync(args.out, { recursive: true });
  const svgPath = join(args.out, `backtest-${args.league}-${args.from}-${to}.svg`);
  writeFileSync(
    svgPath,
    backtestSvg({
      title: `${args.league} ${args.from}-${to}: best pre-kickoff price of ${args.books.join('/')} vs fair (edge >= ${args.minEdge} %); data: football-data.co.uk`,
      flatProfit: report.series.flatProfit,
      kellyBankroll: report.series.kellyBankroll,
      calibrationModel: report.calibration.model,
      calibrationClose: report.calibration.close,
    }),
  );
  if (args.json) {
    const { series, bets, ...figures } = report;
    process.stdout.write(`${JSON.stringify({ league: args.league, seconds, chart: svgPath, ...figures }, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatReport(report, args.league, seconds)}\nchart: ${svgPath}\nData: football-data.co.uk\n`);
  }
  return 0;
}

if (require.main === module) {
  try {
    process.exitCode = main();
  } catch (e) {
    process.stderr.write(`backtest: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
