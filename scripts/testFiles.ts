import { existsSync, globSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The suite's test files and how long each took: `npm test` (scripts/test.ts) gives mocha's
 * parallel mode the files slowest first, from test/file-times.json (a past run's figures, seconds
 * per file: `cp .local/test-times.json test/file-times.json` after a run refreshes them), so the
 * longest start at once. Each test process appends each file's time to FILE_TIMES_LOG
 * (test/helpers/fileTimes.ts).
 */

export const SUITE_GLOBS = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/browser/**/*.test.ts'];
export const FILE_TIMES_LOG = '.local/test-times.jsonl';
/** A file with no recorded time: about what a small integration file takes. */
const UNKNOWN_S = 5;

/** Every file of the suite, slowest first by the recorded times (unknown ones as UNKNOWN_S), then by name. */
export function suiteFiles(root: string): string[] {
  const files = SUITE_GLOBS.flatMap((g) => globSync(g, { cwd: root })).sort();
  const known = resolve(root, 'test/file-times.json');
  const times: Record<string, number> = existsSync(known) ? (JSON.parse(readFileSync(known, 'utf8')) as Record<string, number>) : {};
  const time = (f: string) => times[f] ?? UNKNOWN_S;
  return files.sort((a, b) => time(b) - time(a) || a.localeCompare(b));
}

/** Each file's time from the log (summed over its top-level suites), slowest first. */
export function readFileTimes(log: string): { file: string; ms: number }[] {
  if (!existsSync(log)) return [];
  const total = new Map<string, number>();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { file?: unknown; ms?: unknown };
    if (typeof row.file === 'string' && typeof row.ms === 'number') total.set(row.file, (total.get(row.file) ?? 0) + row.ms);
  }
  return [...total].map(([file, ms]) => ({ file, ms })).sort((a, b) => b.ms - a.ms);
}
