import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getConfig } from '../../shared/platform/config';

/**
 * The real football-data.co.uk files (never copied into the repository): REPLAY_DATA when set,
 * else ../shared/data/football-data beside the repository root (a worktree may sit a level deeper,
 * so each ancestor of the root is tried).
 */
export function footballDataDir(): string {
  if (getConfig().REPLAY_DATA) return getConfig().REPLAY_DATA;
  const repoRoot = path.resolve(__dirname, '../..');
  for (let dir = path.dirname(repoRoot); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared/data/football-data');
    if (existsSync(candidate)) return candidate;
    if (dir === path.dirname(dir)) return path.resolve(repoRoot, '../shared/data/football-data');
  }
}

export const hasSeason = (season: string): boolean => existsSync(path.join(footballDataDir(), `${season}.csv`));

/** The header and the first `rows` lines of a real season file, each line passed through `edit`. */
export function seasonLines(season: string, rows: number): string[] {
  return readFileSync(path.join(footballDataDir(), `${season}.csv`), 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(0, rows + 1);
}

/** Writes files (name -> text) into a fresh temporary folder and returns it. */
export function dataFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'replay-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

/** A row of a CSV as a column -> cell map. */
export function rowOf(header: string, line: string): Record<string, string> {
  const h = header.split(',');
  const c = line.split(',');
  return Object.fromEntries(h.map((k, i) => [k, c[i] ?? '']));
}
