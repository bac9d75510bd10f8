import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reader for football-data.co.uk season files (../shared/data/football-data, see its README).
 * Pure parsing: the caller decides which files; nothing here knows about the service's models.
 */
/** The counts a row gives besides the full-time score; null where the file leaves them out. */
export interface MatchCounts {
  hthg: number | null;
  htag: number | null;
  homeCorners: number | null;
  awayCorners: number | null;
  homeYellow: number | null;
  awayYellow: number | null;
  homeRed: number | null;
  awayRed: number | null;
}

export interface FootballDataMatch extends MatchCounts {
  file: string;
  /** Line number in the file (the header is line 1): what a log line about the row names. */
  row: number;
  division: string;
  /** Kickoff in UTC; files before 2019/20 carry no time, 15:00 UK time is assumed. */
  kickoff: Date;
  homeTeam: string;
  awayTeam: string;
  fthg: number | null;
  ftag: number | null;
  /** Every column of the row as a number where it parses (odds columns: B365H, PSCH, AHh, ...). */
  odds: Record<string, number>;
}

function num(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function parseDate(date: string, time: string | undefined): Date | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(date.trim());
  if (!m) return null;
  let year = Number(m[3]);
  if (year < 100) year += year >= 90 ? 1900 : 2000;
  const [hh, mm] = (time && /^\d{1,2}:\d{2}$/.test(time.trim()) ? time.trim() : '15:00').split(':').map(Number);
  // UK local time; an hour's error around DST does not matter for walk-forward ordering by day.
  return new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[1]), hh - 1, mm));
}

/** Columns without which no row of a file can be read. */
export const REQUIRED_COLUMNS = ['Date', 'HomeTeam', 'AwayTeam'] as const;

export interface ParseOptions {
  /** Told of every row (or, at line 1, the whole file) left out, and why. */
  onSkip?: (line: number, reason: string) => void;
}

export function parseFootballDataCsv(text: string, file = '', opts: ParseOptions = {}): FootballDataMatch[] {
  const skip = opts.onSkip ?? (() => undefined);
  // Blank lines are kept as empty strings so line numbers stay those of the file.
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.every((l) => l.trim() === '')) return [];
  const header = lines[0]
    .replace(/^\uFEFF/, '')
    .split(',')
    .map((h) => h.trim());
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) {
    skip(1, `missing columns ${missing.join(', ')}: file skipped`);
    return [];
  }
  const out: FootballDataMatch[] = [];
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n];
    if (line.trim() === '' || /^,*$/.test(line.trim())) continue;
    const cells = line.split(',');
    const row: Record<string, string> = {};
    header.forEach((h, i) => (row[h] = cells[i] ?? ''));
    if (!row.HomeTeam || !row.AwayTeam || !row.Date) {
      skip(n + 1, 'no date or team');
      continue;
    }
    const kickoff = parseDate(row.Date, row.Time);
    if (!kickoff) {
      skip(n + 1, `unreadable date "${row.Date}"`);
      continue;
    }
    const odds: Record<string, number> = {};
    for (const h of header) {
      const n = num(row[h]);
      if (n !== null) odds[h] = n;
    }
    out.push({
      file,
      row: n + 1,
      division: row.Div ?? '',
      kickoff,
      homeTeam: row.HomeTeam.trim(),
      awayTeam: row.AwayTeam.trim(),
      fthg: num(row.FTHG),
      ftag: num(row.FTAG),
      hthg: num(row.HTHG),
      htag: num(row.HTAG),
      homeCorners: num(row.HC),
      awayCorners: num(row.AC),
      homeYellow: num(row.HY),
      awayYellow: num(row.AY),
      homeRed: num(row.HR),
      awayRed: num(row.AR),
      odds,
    });
  }
  return out;
}

/** Season files in a directory, optionally filtered by a name prefix (E0_, SP1_), oldest first. */
export function listSeasonFiles(dir: string, prefix?: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.csv') && (!prefix || f.startsWith(prefix)))
    .sort((a, b) => seasonKey(a) - seasonKey(b) || a.localeCompare(b))
    .map((f) => join(dir, f));
}

/** E0_1920.csv -> 2019; E0_0001.csv -> 2000. */
export function seasonKey(file: string): number {
  const m = /_(\d{2})(\d{2})\.csv$/.exec(file);
  if (!m) return 0;
  const start = Number(m[1]);
  return start >= 90 ? 1900 + start : 2000 + start;
}

export function loadSeasonFiles(files: string[]): FootballDataMatch[] {
  return files.flatMap((f) => parseFootballDataCsv(readFileSync(f, 'utf8'), f)).sort((a, b) => a.kickoff.getTime() - b.kickoff.getTime());
}
