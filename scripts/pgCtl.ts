/**
 * pg_ctl and the other PostgreSQL binaries of the machine, apart from scripts/postgres.ts so that
 * the services watchdog (scripts/servicesWatchdog.ts) can stop a private cluster without loading
 * the PostgreSQL client and the data layer.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface PgBinaries {
  initdb: string;
  pgCtl: string;
}

export function which(cmd: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** initdb and pg_ctl from PATH, else from the newest /usr/lib/postgresql/<version>/bin. */
export function findPgBinaries(): PgBinaries | undefined {
  const initdb = which('initdb');
  const pgCtl = which('pg_ctl');
  if (initdb && pgCtl) return { initdb, pgCtl };
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl')) && existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? { initdb: join(base, versions[0], 'bin', 'initdb'), pgCtl: join(base, versions[0], 'bin', 'pg_ctl') } : undefined;
}

export const isRoot = () => process.getuid?.() === 0;

/**
 * PostgreSQL refuses to run as root, so as root its commands run as the `postgres` OS user
 * (created by the distribution's package) and the cluster directory belongs to that user.
 */
export function runPg(bin: string, args: string[]): string {
  const [cmd, full] = isRoot()
    ? [which('runuser') ? 'runuser' : 'su', which('runuser') ? ['-u', 'postgres', '--', bin, ...args] : ['postgres', '-s', '/bin/sh', '-c', [bin, ...args].map(shellQuote).join(' ')]]
    : [bin, args];
  return execFileSync(cmd, full, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Stops the private cluster in dataDir (fast shutdown, waiting for it); nothing when it is not running. Synchronous: usable at exit. */
export function stopPrivateCluster(dataDir: string): void {
  const bins = findPgBinaries();
  if (!bins) return;
  try {
    runPg(bins.pgCtl, ['stop', '-D', dataDir, '-m', 'fast', '-w']);
  } catch {
    // already stopped
  }
}
