/**
 * Pure settlement throughput: grades 100,000 generated recommendations over 10,000 events,
 * settles 10,000 two-leg parlays and rolls everything up into performance counters.
 * No database or queue: this is the ceiling the settlement worker's I/O sits on top of.
 * Usage: npm run bench:grading [-- <events> <recommendationsPerEvent>]
 */
import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { performance } from 'node:perf_hooks';
import { MARKET_TYPES, type MarketType } from '../shared/domain/markets/catalog';
import { mulberry32 } from '../shared/domain/ai/random';
import type { EndState, EventStats } from '../shared/domain/stats';
import { gradeSelection, type SelectionGrade, type SelectionToGrade } from '../shared/domain/grading/grade';
import { gradeParlay } from '../shared/domain/grading/parlay';
import { CONFIDENCES, performanceReport, recomputeFromBets, type SettledBet } from '../shared/domain/grading/performance';

const EVENTS = Number(process.argv[2] ?? 10_000);
const PER_EVENT = Number(process.argv[3] ?? 10);

// Seeded so runs are comparable.
const rnd = mulberry32(42);
const int = (max: number) => Math.floor(rnd() * (max + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
const maybeNull = (v: number, p = 0.03) => (rnd() < p ? null : v);

const SCALE: Record<number, number> = { 1: 4, 2: 120, 3: 3, 4: 9, 5: 3, 6: 35, 7: 6, 8: 32 };
const BY_SPORT = new Map<number, MarketType[]>();
for (const t of MARKET_TYPES) BY_SPORT.set(t.sportId, [...(BY_SPORT.get(t.sportId) ?? []), t]);

interface GeneratedEvent {
  sportId: number;
  stats: EventStats;
  endState: EndState;
  started: boolean;
}

function generateEvent(): GeneratedEvent {
  const sportId = 1 + int(7);
  const s = SCALE[sportId];
  const h = int(s);
  const a = int(s);
  const roll = rnd();
  return {
    sportId,
    stats: {
      homeGoals: maybeNull(h, 0.01),
      awayGoals: maybeNull(a, 0.01),
      homeGoalsFirstHalf: maybeNull(Math.min(h, int(s)), 0.05),
      awayGoalsFirstHalf: maybeNull(Math.min(a, int(s)), 0.05),
      homeCorners: maybeNull(int(10)),
      awayCorners: maybeNull(int(8)),
      homeYellowCards: maybeNull(int(4)),
      awayYellowCards: maybeNull(int(4)),
      homeRedCards: maybeNull(int(1) * int(1)),
      awayRedCards: maybeNull(int(1) * int(1)),
    },
    endState: roll < 0.01 ? 'postponed' : roll < 0.02 ? 'abandoned' : 'completed',
    started: rnd() > 0.01,
  };
}

function generateSelection(e: GeneratedEvent): SelectionToGrade {
  const type = pick(BY_SPORT.get(e.sportId)!);
  const s = SCALE[e.sportId];
  const line =
    type.kind === 'total'
      ? Math.round(((type.stat === 'corners' ? 9 : type.stat === 'cards' ? 4 : s) + rnd() * 2 - 1) * 4) / 4
      : type.kind === 'handicap'
        ? Math.round((rnd() * 2 - 1) * Math.max(1, s / 4) * 4) / 4
        : null;
  return { betTypeSysname: type.sysname, code: pick(type.outcomes).code, line, odds: 1.2 + rnd() * 4, stats: e.stats, endState: e.endState, started: e.started };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
let peakHeap = 0;
const sampleHeap = () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed));

const t0 = performance.now();
const events = Array.from({ length: EVENTS }, generateEvent);
const selections = events.flatMap((e) => Array.from({ length: PER_EVENT }, () => generateSelection(e)));
sampleHeap();
const t1 = performance.now();

const grades: (SelectionGrade | null)[] = new Array<SelectionGrade | null>(selections.length);
for (let i = 0; i < selections.length; i++) {
  grades[i] = gradeSelection(selections[i]);
  if ((i & 0x3fff) === 0) sampleHeap();
}
const t2 = performance.now();

let parlaysSettled = 0;
for (let i = 0; i + 1 < selections.length; i += 2 * PER_EVENT) {
  const j = i + PER_EVENT; // legs from two different events
  if (j >= selections.length) break;
  const legs = [i, j].map((k) => ({ odds: selections[k].odds, resultDetail: grades[k]?.resultDetail ?? null }));
  if (gradeParlay(legs)) parlaysSettled++;
}
const t3 = performance.now();

const bets: SettledBet[] = [];
grades.forEach((g, i) => {
  if (!g) return;
  bets.push({
    day: `2024-05-${String(1 + (i % 30)).padStart(2, '0')}`,
    confidence: CONFIDENCES[i % 3],
    result: g.result,
    resultDetail: g.resultDetail,
    returnPerUnit: g.returnPerUnit,
    edgePercentage: (i % 17) / 2,
  });
});
const report = performanceReport(recomputeFromBets(bets), { days: 30, today: '2024-05-30', now: new Date() });
sampleHeap();
const t4 = performance.now();

const counts = grades.reduce<Record<string, number>>((acc, g) => ((acc[g ? g.resultDetail : 'unsettled'] = (acc[g ? g.resultDetail : 'unsettled'] ?? 0) + 1), acc), {});
const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(`settlement grading bench: ${EVENTS} events, ${selections.length} recommendations (node ${process.version})`);
console.log(`  generate         ${ms(t1 - t0)}`);
console.log(`  grade            ${ms(t2 - t1)}  (${Math.round(selections.length / ((t2 - t1) / 1000)).toLocaleString('en')} selections/s)`);
console.log(`  parlays          ${ms(t3 - t2)}  (${parlaysSettled} of ${Math.floor(EVENTS / 2)} settled)`);
console.log(`  rollup + report  ${ms(t4 - t3)}  (${bets.length} settled bets; odds are random, so the ROI says nothing: overall ${JSON.stringify(report.overall)})`);
console.log(`  results          ${JSON.stringify(counts)}`);
console.log(`  peak heap used   ${mb(peakHeap)} (sampled); max RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
