import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFootballDataCsv } from '../../data/footballData';
import { hashInt, providerEventId } from '../../../domain/providers/ids';
import type { ScenarioIncident } from '../simulated/scenario';
import type { FeedCompetition } from '../../../domain/providers/types';
import { fileMarkets, type FileMarket } from './books';
import { inconsistentCounts, matchTimeline, type FinalCounts } from './timeline';
import { errorMessage } from '../../errorFields';

/** What a bad row or file is reported to: one line naming the file and the row. */
export interface ReplayLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** football-data.co.uk division codes: the competition's English name, region and popularity. */
export const DIVISIONS: Record<string, { name: string; region: string; priority: number }> = {
  E0: { name: 'Premier League', region: 'GB-ENG', priority: 100 },
  E1: { name: 'Championship', region: 'GB-ENG', priority: 70 },
  E2: { name: 'League One', region: 'GB-ENG', priority: 50 },
  E3: { name: 'League Two', region: 'GB-ENG', priority: 40 },
  SC0: { name: 'Premiership', region: 'GB-SCT', priority: 55 },
  SP1: { name: 'La Liga', region: 'ES', priority: 95 },
  SP2: { name: 'Segunda División', region: 'ES', priority: 55 },
  D1: { name: 'Bundesliga', region: 'DE', priority: 90 },
  D2: { name: '2. Bundesliga', region: 'DE', priority: 55 },
  I1: { name: 'Serie A', region: 'IT', priority: 90 },
  I2: { name: 'Serie B', region: 'IT', priority: 55 },
  F1: { name: 'Ligue 1', region: 'FR', priority: 85 },
  F2: { name: 'Ligue 2', region: 'FR', priority: 50 },
  N1: { name: 'Eredivisie', region: 'NL', priority: 70 },
  B1: { name: 'Jupiler Pro League', region: 'BE', priority: 60 },
  P1: { name: 'Primeira Liga', region: 'PT', priority: 70 },
  T1: { name: 'Süper Lig', region: 'TR', priority: 60 },
  G1: { name: 'Super League', region: 'GR', priority: 50 },
};

export interface ReplayMatch {
  eventId: string;
  /** The season's file name without .csv (E0_2223) and the row's line in it. */
  season: string;
  row: number;
  competition: FeedCompetition;
  homeTeam: string;
  awayTeam: string;
  /** Kickoff, epoch ms. */
  kickoff: number;
  counts: FinalCounts;
  markets: FileMarket[];
  timeline: ScenarioIncident[];
}

/** Seed of the in-play paths: fixed, so every worker and every run draws the same minutes. */
const TIMELINE_SEED = 15;

/** The playable matches of one season file's text; every row left out is logged with the reason. */
export function replayMatchesFromText(text: string, season: string, log: ReplayLog): ReplayMatch[] {
  const file = `${season}.csv`;
  const warn = (row: number, reason: string) => log.warn({ file, row }, `replay: ${file} row ${row} skipped: ${reason}`);
  const out: ReplayMatch[] = [];
  const seen = new Set<string>();
  for (const m of parseFootballDataCsv(text, file, { onSkip: (row, reason) => (row === 1 ? log.warn({ file, row }, `replay: ${file} skipped: ${reason}`) : warn(row, reason)) })) {
    const division = m.division || season.split('_')[0];
    const div = DIVISIONS[division];
    if (!div) {
      warn(m.row, `unknown division "${division}"`);
      continue;
    }
    if (m.fthg === null || m.ftag === null) {
      warn(m.row, 'no full-time score (FTHG/FTAG)');
      continue;
    }
    const counts: FinalCounts = {
      fthg: m.fthg,
      ftag: m.ftag,
      hthg: m.hthg,
      htag: m.htag,
      homeCorners: m.homeCorners,
      awayCorners: m.awayCorners,
      homeYellow: m.homeYellow,
      awayYellow: m.awayYellow,
      homeRed: m.homeRed,
      awayRed: m.awayRed,
    };
    const bad = inconsistentCounts(counts);
    if (bad) {
      warn(m.row, bad);
      continue;
    }
    const { markets, partial } = fileMarkets(m);
    for (const p of partial)
      log.warn({ file, row: m.row, book: p.book, columns: p.columns }, `replay: ${file} row ${m.row}: ${p.book} left out of a market (empty or invalid cells ${p.columns.join(', ')})`);
    if (!markets.some((x) => x.betTypeSysname === 'SOCCER_MATCH_RESULT')) {
      warn(m.row, 'no bookmaker prices the match result');
      continue;
    }
    const sourceId = `${season}|${m.homeTeam}|${m.awayTeam}`;
    if (seen.has(sourceId)) {
      warn(m.row, `repeats ${m.homeTeam} v ${m.awayTeam}`);
      continue;
    }
    seen.add(sourceId);
    out.push({
      eventId: providerEventId('replay', sourceId),
      season,
      row: m.row,
      competition: { id: competitionId(division), name: div.name, regionCode: div.region, priority: div.priority },
      homeTeam: m.homeTeam,
      awayTeam: m.awayTeam,
      kickoff: m.kickoff.getTime(),
      counts,
      markets,
      timeline: matchTimeline(TIMELINE_SEED, sourceId, counts),
    });
  }
  return out;
}

export function competitionId(division: string): number {
  return hashInt(`replay-competition|${division}`, 100_000, 999_999_999);
}

/** The selected seasons' matches, kickoff order; a file that cannot be read is logged and skipped. */
export function loadReplaySeasons(dir: string, seasons: readonly string[], log: ReplayLog): ReplayMatch[] {
  const out: ReplayMatch[] = [];
  for (const season of seasons) {
    const file = `${season}.csv`;
    let text: string;
    try {
      text = readFileSync(join(dir, file), 'utf8');
    } catch (err) {
      log.warn({ file, row: null }, `replay: ${file} skipped: cannot be read (${errorMessage(err)})`);
      continue;
    }
    out.push(...replayMatchesFromText(text, season, log));
  }
  return out.sort((a, b) => a.kickoff - b.kickoff || a.eventId.localeCompare(b.eventId));
}
