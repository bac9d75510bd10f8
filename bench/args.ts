/**
 * Command-line options of the benchmark scripts: `--name value`. A bad value stops the script
 * with one line naming the option (exit 2), before anything starts.
 */
export function fail(bench: string, message: string): never {
  process.stderr.write(`${bench}: ${message}\n`);
  process.exit(2);
}

/** The raw text after `--name`, or the fallback when the option is absent. */
export function option(bench: string, name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const v = process.argv[i + 1];
  if (v === undefined || v.startsWith('--')) fail(bench, `--${name} needs a value`);
  return v;
}

/** A whole number in min..max after `--name`, or the fallback. */
export function integer(bench: string, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER, min = 1): number {
  const raw = option(bench, name, String(fallback));
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) fail(bench, `--${name} must be an integer ${min}..${max} (got "${raw}")`);
  return n;
}
