import { isRecord } from '../records';
import { summarize, type RecordSummary, type TrackRecordBet } from './aggregate';

/**
 * The record broken down by what a customer can check from the chain alone: competition,
 * bookmaker, market, how long before kickoff the bet was written, and the first bet per outcome
 * (a recommendation re-issued at new odds is another bet). Built from the chain's canonical
 * records, so anyone holding the chain gets the same figures. Pure.
 */
export interface ChainBet extends TrackRecordBet {
  id: string;
  eventId: string;
  competition: string;
  bookmaker: string;
  market: string;
  line: number | null;
  outcome: string;
  /** Hours from the record's creation to its event's kickoff (world time). */
  hoursBeforeKickoff: number;
}

type Parsed = Readonly<Record<string, unknown>>;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const obj = (v: unknown): Parsed => (isRecord(v) ? v : {});

/** Settled recommendations of a chain (its links' records, in order); a later settlement link (a correction) replaces an earlier one. */
export function chainBets(records: readonly string[]): ChainBet[] {
  const recs = new Map<string, Parsed>();
  const settled = new Map<string, Parsed>();
  for (const raw of records) {
    const r = obj(JSON.parse(raw));
    const id = text(r.id);
    if (r.type === 'recommendation' && id) recs.set(id, r);
    else if (r.type === 'recommendation-settlement' && id) settled.set(id, r);
  }
  const out: ChainBet[] = [];
  for (const [id, r] of recs) {
    const s = settled.get(id);
    if (!s) continue;
    const event = obj(r.event);
    const market = obj(r.market);
    const startAt = Date.parse(text(event.startAt));
    out.push({
      id,
      eventId: text(event.id),
      competition: text(event.competition),
      bookmaker: text(r.bookmaker),
      market: text(market.type),
      line: num(market.line),
      outcome: text(obj(r.outcome).code),
      confidence: text(r.confidence),
      probability: num(r.probability) ?? NaN,
      odds: num(r.odds) ?? NaN,
      result: typeof s.result === 'string' ? s.result : null,
      resultDetail: typeof s.resultDetail === 'string' ? s.resultDetail : null,
      returnPerUnit: num(s.returnPerUnit),
      clv: num(s.clv),
      eventStartAt: new Date(startAt),
      hoursBeforeKickoff: (startAt - Date.parse(text(r.createdAt))) / 3_600_000,
    });
  }
  return out;
}

export const LEAD_BUCKETS: readonly [label: string, fromHours: number][] = [
  ['48 h or more', 48],
  ['24 to 48 h', 24],
  ['6 to 24 h', 6],
  ['under 6 h', -Infinity],
];

const leadOf = (b: ChainBet) => LEAD_BUCKETS.find(([, from]) => b.hoursBeforeKickoff >= from)![0];

export type BreakdownRow = RecordSummary & { by: string; group: string };

function groupBy(by: string, bets: readonly ChainBet[], keyOf: (b: ChainBet) => string, order?: readonly string[]): BreakdownRow[] {
  const groups = new Map<string, ChainBet[]>();
  for (const b of bets) {
    const key = keyOf(b);
    const group = groups.get(key);
    if (group) group.push(b);
    else groups.set(key, [b]);
  }
  const sorted = [...groups].sort(([a, ga], [b, gb]) => (order ? order.indexOf(a) - order.indexOf(b) : gb.length - ga.length || a.localeCompare(b)));
  return sorted.map(([group, members]) => ({ by, group, ...summarize(members) }));
}

/** The first bet written on each outcome of each event's market (the earliest, as a customer following at first sight would take it). */
export function firstBetPerOutcome(bets: readonly ChainBet[]): ChainBet[] {
  const first = new Map<string, ChainBet>();
  for (const b of [...bets].sort((x, y) => y.hoursBeforeKickoff - x.hoursBeforeKickoff)) {
    const k = `${b.eventId}|${b.market}|${b.line ?? ''}|${b.outcome}`;
    if (!first.has(k)) first.set(k, b);
  }
  return [...first.values()];
}

/**
 * The bets `npm run backtest` would make: the match result only, once per outcome, at (about) the
 * opening prices, which a replay lists 72 h before kickoff. The live record and the backtest are
 * compared on these.
 */
export const BACKTEST_LIKE = { market: 'SOCCER_MATCH_RESULT', fromHours: 48, group: 'match result, first bet per outcome, 48 h or more before kickoff' } as const;

export function breakdown(bets: readonly ChainBet[]): BreakdownRow[] {
  const first = firstBetPerOutcome(bets);
  const backtestLike = first.filter((b) => b.market === BACKTEST_LIKE.market && b.hoursBeforeKickoff >= BACKTEST_LIKE.fromHours);
  return [
    { by: 'all', group: 'every settled recommendation', ...summarize(bets) },
    { by: 'all', group: 'first bet per outcome', ...summarize(first) },
    { by: 'like the backtest', group: BACKTEST_LIKE.group, ...summarize(backtestLike) },
    ...groupBy('competition', bets, (b) => b.competition),
    ...groupBy('market', bets, (b) => b.market),
    ...groupBy('bookmaker', bets, (b) => b.bookmaker),
    ...groupBy('confidence', bets, (b) => b.confidence, ['High', 'Medium', 'Low']),
    ...groupBy(
      'written before kickoff',
      bets,
      leadOf,
      LEAD_BUCKETS.map(([label]) => label),
    ),
  ];
}

/** The breakdown as a table of lines (record-breakdown's and the replay's output). */
export function breakdownText(head: { hash: string; length: number }, rows: readonly BreakdownRow[]): string {
  const pct = (x: number | null, digits = 2) => (x === null ? '-' : `${(x * 100).toFixed(digits)} %`);
  const lines = rows.map((x) =>
    [
      `${x.by}: ${x.group}`.padEnd(44),
      `bets ${String(x.bets).padStart(5)}`,
      `ROI ${pct(x.roi).padStart(9)} (s.e. ${pct(x.roiStandardError)})`.padEnd(30),
      `CLV ${pct(x.clv.mean).padStart(8)} (s.e. ${pct(x.clv.standardError)})`,
      `beat close ${pct(x.clv.beatCloseShare, 1)}`,
    ].join('  '),
  );
  return [`settled recommendations of the chain (head ${head.hash}, length ${head.length}):`, ...lines].join('\n');
}
