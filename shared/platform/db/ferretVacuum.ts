import { Client } from 'pg';
import { sqlIdent } from './ferretIndexes';

/**
 * FerretDB keeps each document in one `_jsonb` column, so every update of a document writes a
 * whole new row and leaves a dead one behind in the table and in each of its indexes. PostgreSQL's
 * autovacuum reclaims them, but a server may run with `autovacuum = off`, and then nothing ever
 * does: measured at demo speed, the events table holds 4,138 dead rows beside 376 live ones after
 * 5 minutes, 20.9 MB for 3 MB of documents, and FerretDB's update by _id grows from 13 ms to 35 ms
 * and on (a VACUUM brings it back to 12 ms). This does autovacuum's job for FerretDB's tables of one database, with
 * autovacuum's own trigger, whether or not the server runs it.
 */

export interface TableActivity {
  table: string;
  live: number;
  dead: number;
  /** Rows inserted, updated or deleted since the table was last analyzed. */
  modifiedSinceAnalyze: number;
}

export interface VacuumRule {
  threshold: number;
  scale: number;
  analyzeThreshold: number;
  analyzeScale: number;
}

/** PostgreSQL's autovacuum defaults (autovacuum_vacuum_threshold and _scale_factor; the analyze pair). */
export const VACUUM_RULE: Readonly<VacuumRule> = { threshold: 50, scale: 0.2, analyzeThreshold: 50, analyzeScale: 0.1 };

/** What is due (pure): VACUUM where dead rows passed the threshold, ANALYZE alone where only changes did. */
export function tablesDue(activity: readonly TableActivity[], rule: Readonly<VacuumRule> = VACUUM_RULE): { vacuum: string[]; analyze: string[] } {
  const vacuum: string[] = [];
  const analyze: string[] = [];
  for (const t of activity) {
    if (t.dead > rule.threshold + rule.scale * t.live) vacuum.push(t.table);
    else if (t.modifiedSinceAnalyze > rule.analyzeThreshold + rule.analyzeScale * t.live) analyze.push(t.table);
  }
  return { vacuum, analyze };
}

export interface VacuumReport {
  /** False when another process held the database's vacuum lock: it is doing this round. */
  ran: boolean;
  vacuumed: string[];
  analyzed: string[];
  ms: number;
}

/**
 * One maintenance round over FerretDB's tables for `database` (its PostgreSQL schema). Processes
 * take turns through an advisory lock, and a round another holds is skipped, not waited for.
 * VACUUM without FULL takes no lock that blocks reads or writes.
 */
export async function vacuumFerretTables(client: Client, database: string): Promise<VacuumReport> {
  const started = Date.now();
  const lock = `ferret-vacuum:${database}`;
  const got = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [lock]);
  if (!got.rows[0].ok) return { ran: false, vacuumed: [], analyzed: [], ms: Date.now() - started };
  try {
    const rows = await client.query<{ relname: string; live: string; dead: string; mod: string }>(
      'SELECT relname, n_live_tup AS live, n_dead_tup AS dead, n_mod_since_analyze AS mod FROM pg_stat_user_tables WHERE schemaname = $1',
      [database],
    );
    const due = tablesDue(rows.rows.map((r) => ({ table: r.relname, live: Number(r.live), dead: Number(r.dead), modifiedSinceAnalyze: Number(r.mod) })));
    for (const t of due.vacuum) await client.query(`VACUUM (ANALYZE) ${sqlIdent(database)}.${sqlIdent(t)}`);
    for (const t of due.analyze) await client.query(`ANALYZE ${sqlIdent(database)}.${sqlIdent(t)}`);
    return { ran: true, vacuumed: due.vacuum, analyzed: due.analyze, ms: Date.now() - started };
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]);
  }
}

/** A connection kept for the rounds; reopened after a failure. */
export class FerretVacuum {
  private client: Client | undefined;
  private running: Promise<VacuumReport> | undefined;

  constructor(
    private readonly postgresUrl: string,
    private readonly database: string,
  ) {}

  /** A round still running when the next is due is the next one (the advisory lock is re-entrant within a session). */
  round(): Promise<VacuumReport> {
    this.running ??= this.roundOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async roundOnce(): Promise<VacuumReport> {
    if (!this.client) {
      const client = new Client({ connectionString: this.postgresUrl, connectionTimeoutMillis: 10000 });
      client.on('error', () => void this.drop(client));
      await client.connect();
      this.client = client;
    }
    const client = this.client;
    try {
      return await vacuumFerretTables(client, this.database);
    } catch (err) {
      await this.drop(client);
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.client) await this.drop(this.client);
  }

  private async drop(client: Client): Promise<void> {
    if (this.client === client) this.client = undefined;
    await client.end().catch(() => undefined);
  }
}
