/**
 * `npm start -- --scale web=2,ingest=2,...`: how many copies of each Procfile process to run
 * (pure; scripts/start.ts launches them, scripts/soak.ts asks for them). A process not named
 * runs one copy; web copies listen on consecutive ports from PORT.
 */
export const PROCFILE = ['web', 'ingest', 'ai', 'settlement', 'scheduler'] as const;
export type ProcName = (typeof PROCFILE)[number];
export type Scale = Record<ProcName, number>;

/** More copies than this of one process on one machine is a typo, not a plan. */
export const MAX_COPIES = 16;

export const ONE_EACH: Scale = { web: 1, ingest: 1, ai: 1, settlement: 1, scheduler: 1 };

const isProcName = (s: string): s is ProcName => PROCFILE.some((p) => p === s);

/** Parses `web=2,ingest=2`; throws an Error naming the bad part (the CLI prints it and exits 2). */
export function parseScale(arg: string): Scale {
  const scale: Scale = { ...ONE_EACH };
  const seen = new Set<string>();
  if (!arg.trim()) throw new Error(`--scale needs name=count pairs, e.g. --scale web=2,ingest=2 (names: ${PROCFILE.join(', ')})`);
  for (const part of arg.split(',')) {
    const m = /^\s*([a-z]+)\s*=\s*(\d+)\s*$/.exec(part);
    if (!m) throw new Error(`--scale: "${part}" is not name=count (e.g. web=2)`);
    const [, name, count] = m;
    if (!isProcName(name)) throw new Error(`--scale: unknown process "${name}" (one of ${PROCFILE.join(', ')})`);
    if (seen.has(name)) throw new Error(`--scale: "${name}" is named twice`);
    seen.add(name);
    const n = Number(count);
    if (!Number.isInteger(n) || n < 1 || n > MAX_COPIES) throw new Error(`--scale: ${name}=${count} must be from 1 to ${MAX_COPIES}`);
    scale[name] = n;
  }
  return scale;
}

/** The scale as `--scale` takes it back (every process named). */
export const formatScale = (s: Scale): string => PROCFILE.map((p) => `${p}=${s[p]}`).join(',');

export interface Instance {
  /** `ingest`, or `ingest.2` when there are several copies. */
  id: string;
  name: ProcName;
  /** The web copy's port (PORT + its index); undefined for the others. */
  port?: number;
}

/** Every process copy to launch, in Procfile order. */
export function instances(scale: Scale, basePort: number): Instance[] {
  return PROCFILE.flatMap((name) =>
    Array.from({ length: scale[name] }, (_, i): Instance => ({ id: scale[name] > 1 ? `${name}.${i + 1}` : name, name, ...(name === 'web' ? { port: basePort + i } : {}) })),
  );
}
