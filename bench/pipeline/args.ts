/** Command line of `npm run bench:pipeline`; a bad argument is an ArgError naming it (exit 2). */
export interface PipelineArgs {
  /** Events the simulated feed shows at once (0 = the world as configured: about 220). */
  events: number;
  /** Events live at every instant beyond the world's own (rolling slots). */
  live: number;
  speed: number;
  minutes: number;
  /** sqlite | postgresql (FerretDB backend the bootstrap starts), embedded (its default), or a mongodb:// URI. */
  store: string;
  pollMs: number;
  settlementDelayMs: number;
}

export class ArgError extends Error {}

export const USAGE = 'usage: npm run bench:pipeline -- [--events N] [--live N] [--speed N] [--minutes N] [--store sqlite|postgresql|embedded|mongodb://...] [--poll-ms N] [--settlement-delay-ms N]';

const INTEGER_ARGS = {
  events: { min: 0, max: 50_000, fallback: 0 },
  live: { min: 0, max: 50_000, fallback: 0 },
  speed: { min: 1, max: 100_000, fallback: 120 },
  minutes: { min: 1, max: 24 * 60, fallback: 5 },
  'poll-ms': { min: 1000, max: 3_600_000, fallback: 2000 },
  'settlement-delay-ms': { min: 0, max: 86_400_000, fallback: 3000 },
} as const;

export function parsePipelineArgs(argv: string[]): PipelineArgs {
  const raw = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i];
    if (!name.startsWith('--')) throw new ArgError(`unexpected argument "${name}"`);
    const key = name.slice(2);
    if (!(key in INTEGER_ARGS) && key !== 'store') throw new ArgError(`unknown argument ${name} (expected --${[...Object.keys(INTEGER_ARGS), 'store'].join(' --')})`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new ArgError(`${name} needs a value`);
    raw.set(key, value);
  }
  const int = (name: keyof typeof INTEGER_ARGS): number => {
    const spec = INTEGER_ARGS[name];
    const v = raw.get(name);
    if (v === undefined) return spec.fallback;
    if (!/^\d+$/.test(v) || Number(v) < spec.min || Number(v) > spec.max) throw new ArgError(`--${name} must be an integer ${spec.min}..${spec.max} (got "${v}")`);
    return Number(v);
  };
  const store = raw.get('store') ?? 'embedded';
  if (!['sqlite', 'postgresql', 'embedded'].includes(store) && !/^mongodb(\+srv)?:\/\/.+/.test(store)) {
    throw new ArgError(`--store must be sqlite, postgresql, embedded or a mongodb:// URI (got "${store}")`);
  }
  return {
    events: int('events'),
    live: int('live'),
    speed: int('speed'),
    minutes: int('minutes'),
    store,
    pollMs: int('poll-ms'),
    settlementDelayMs: int('settlement-delay-ms'),
  };
}
