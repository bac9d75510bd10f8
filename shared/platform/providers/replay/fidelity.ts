import type { ClosingLine, StoredEvent } from '../../../domain/ingest/stored';
import type { StatKey } from '../../../domain/stats';
import type { ReplayMatch } from './season';

/**
 * Did the pipeline play the files faithfully? After a replay, every match should have ended with
 * the file's counts and its closing line should hold every book's closing prices from the file.
 * A poll that came too late (a loaded machine at a high speed) shows here as a closing line
 * captured at earlier prices, which would make every CLV of that match wrong. Pure.
 */
/** A replayed match's event as stored. */
export type ReplayedEvent = Pick<StoredEvent, '_id' | 'status' | 'stats' | 'closingLine'>;

export interface ReplayFidelity {
  matches: number;
  /** Matches stored as completed. */
  ended: number;
  /** Of those, the ones whose score, corners and cards are the file's. */
  countsEqual: number;
  /** Of those, the ones whose closing line holds every book's closing price in the file. */
  closingEqual: number;
  /** The first differences found, one line each (match, what differs). */
  differences: string[];
}

/** Stored stat -> the file's count (only counts the file has are compared). */
const COUNTS: readonly [stat: StatKey, count: (m: ReplayMatch) => number | null][] = [
  ['homeGoals', (m) => m.counts.fthg],
  ['awayGoals', (m) => m.counts.ftag],
  ['homeCorners', (m) => m.counts.homeCorners],
  ['awayCorners', (m) => m.counts.awayCorners],
  ['homeYellowCards', (m) => m.counts.homeYellow],
  ['awayYellowCards', (m) => m.counts.awayYellow],
  ['homeRedCards', (m) => m.counts.homeRed],
  ['awayRedCards', (m) => m.counts.awayRed],
];

export function countDifferences(m: ReplayMatch, stats: ReplayedEvent['stats']): string[] {
  return COUNTS.flatMap(([stat, count]) => {
    const want = count(m);
    const got = stats?.[stat] ?? null;
    return want === null || got === want ? [] : [`${stat} ${got} (file ${want})`];
  });
}

/** Each book's closing price in the file against the captured closing line; a moved handicap line is compared at its closing line only. */
export function closingDifferences(m: ReplayMatch, line: ClosingLine | null | undefined): string[] {
  if (!line) return ['no closing line captured'];
  const out: string[] = [];
  for (const fm of m.markets) {
    const sameType = m.markets.filter((x) => x.betTypeSysname === fm.betTypeSysname);
    if (sameType.length > 1 && sameType[0] === fm) continue; // the opening line, withdrawn before the close
    const cm = line.markets.find((x) => x.betTypeSysname === fm.betTypeSysname && (x.line ?? null) === fm.line);
    if (!cm) {
      out.push(`${fm.betTypeSysname}${fm.line === null ? '' : ` ${fm.line}`} not in the closing line`);
      continue;
    }
    for (const [book, prices] of fm.close) {
      fm.codes.forEach((code, i) => {
        const got = cm.betItems.find((it) => it.code === code)?.bookPrices[book];
        if (got === undefined || Math.abs(got - prices[i]) > 0.005) out.push(`${fm.betTypeSysname} ${code} ${book} closed at ${got ?? 'nothing'} (file ${prices[i]})`);
      });
    }
  }
  return out;
}

export function replayFidelity(matches: readonly ReplayMatch[], events: readonly ReplayedEvent[], keep = 10): ReplayFidelity {
  const byId = new Map(events.map((e) => [e._id, e]));
  const report: ReplayFidelity = { matches: matches.length, ended: 0, countsEqual: 0, closingEqual: 0, differences: [] };
  const note = (m: ReplayMatch, what: string[]) => {
    if (what.length && report.differences.length < keep) report.differences.push(`${m.season} row ${m.row} ${m.homeTeam} v ${m.awayTeam}: ${what.join('; ')}`);
  };
  for (const m of matches) {
    const e = byId.get(m.eventId);
    if (e?.status !== 'completed') {
      note(m, [`stored as ${e?.status ?? 'nothing'}`]);
      continue;
    }
    report.ended++;
    const counts = countDifferences(m, e.stats);
    const closing = closingDifferences(m, e.closingLine);
    if (counts.length === 0) report.countsEqual++;
    if (closing.length === 0) report.closingEqual++;
    note(m, [...counts, ...closing]);
  }
  return report;
}
