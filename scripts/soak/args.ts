/**
 * `npm run soak` arguments (pure): parsed strictly, a bad one an Error naming it (the script prints
 * it with the usage and exits 2).
 */
import { parseArgs } from 'node:util';
import { parseScale, type Scale } from './scale';

export const SOAK_USAGE = 'npm run soak -- [--minutes 3] [--chaos] [--seed 1] [--concurrency 12] [--rps 40] [--scale web=2,ingest=2,ai=2,settlement=2,scheduler=2] [--recovery-s 60] [--gap-s 20,40]';

/** The production topology (docs/deploy.md): two of every process, the second scheduler a standby for the leader's lease. */
export const DEFAULT_SCALE = 'web=2,ingest=2,ai=2,settlement=2,scheduler=2';

/**
 * A steady load rather than saturation: on one machine every process shares the cores, and a web
 * tier answering as fast as it can starves the workers, so recovery would measure the traffic,
 * not the fault. `--rps 0` saturates (a capacity run).
 */
export const DEFAULT_RPS = 40;

export interface SoakOptions {
  minutes: number;
  chaos: boolean;
  seed: number;
  concurrency: number;
  /** Requests per second over all accounts (0: as fast as `concurrency` connections go). */
  rps: number;
  scale: Scale;
  /** After each fault's end, /v2/health must be ok (and ingest caught up) within this many seconds. */
  recoveryS: number;
  /** Seconds between faults: drawn uniformly from [min, max]. */
  gapS: { min: number; max: number };
}

function num(name: string, raw: string | undefined, fallback: number, min: number, max: number, integer: boolean): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
    throw new Error(`--${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}

export function parseSoakArgs(argv: readonly string[]): SoakOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        minutes: { type: 'string' },
        chaos: { type: 'boolean' },
        seed: { type: 'string' },
        concurrency: { type: 'string' },
        rps: { type: 'string' },
        scale: { type: 'string' },
        'recovery-s': { type: 'string' },
        'gap-s': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new Error((err instanceof Error ? err.message : String(err)).replace(/^Unknown option/, 'unknown option'));
  }
  const str = (k: string): string | undefined => {
    const v = values[k];
    return typeof v === 'string' ? v : undefined;
  };
  const gapRaw = str('gap-s') ?? '20,40';
  const gap = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(gapRaw);
  if (!gap || Number(gap[1]) < 1 || Number(gap[2]) < Number(gap[1]) || Number(gap[2]) > 3600) {
    throw new Error(`--gap-s must be min,max seconds between faults, 1 <= min <= max <= 3600 (got "${gapRaw}")`);
  }
  return {
    minutes: num('minutes', str('minutes'), 3, 0.5, 24 * 60, false),
    chaos: values.chaos === true,
    seed: num('seed', str('seed'), 1, 0, 2 ** 31 - 1, true),
    concurrency: num('concurrency', str('concurrency'), 12, 1, 64, true),
    rps: num('rps', str('rps'), DEFAULT_RPS, 0, 10_000, false),
    scale: parseScale(str('scale') ?? DEFAULT_SCALE),
    recoveryS: num('recovery-s', str('recovery-s'), 60, 1, 3600, true),
    gapS: { min: Number(gap[1]), max: Number(gap[2]) },
  };
}
