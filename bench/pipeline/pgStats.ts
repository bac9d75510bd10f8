import { Client } from 'pg';
import { sqlIdent } from '../../shared/platform/db/ferretIndexes';

/**
 * What the store did, read from PostgreSQL's own counters (`pg_stat_user_tables`) of the tables
 * FerretDB made for one MongoDB database: rows inserted, updated and deleted (every FerretDB
 * update rewrites one whole row) and sequential scans, per collection. Only on FerretDB's
 * PostgreSQL backend (FERRETDB_POSTGRES_URL); elsewhere the bench prints none.
 */
export interface TableCounters {
  writes: number;
  seqScans: number;
}

export type StoreCounters = Map<string, TableCounters>;

export async function readStoreCounters(postgresUrl: string, database: string): Promise<StoreCounters> {
  const client = new Client({ connectionString: postgresUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const meta = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [`${sqlIdent(database)}._ferretdb_database_metadata`]);
    if (!meta.rows[0].t) return new Map();
    const tables = await client.query<{ name: string; tbl: string }>(`SELECT _jsonb->>'_id' AS name, _jsonb->>'table' AS tbl FROM ${sqlIdent(database)}._ferretdb_database_metadata`);
    const byTable = new Map(tables.rows.map((r) => [r.tbl, r.name]));
    // Counters of this backend's own transactions only reach the view at their end; others' within about a second.
    const rows = await client.query<{ relname: string; w: string; s: string }>('SELECT relname, n_tup_ins + n_tup_upd + n_tup_del AS w, seq_scan AS s FROM pg_stat_user_tables WHERE schemaname = $1', [
      database,
    ]);
    const out: StoreCounters = new Map();
    for (const r of rows.rows) {
      const name = byTable.get(r.relname);
      if (name) out.set(name, { writes: Number(r.w), seqScans: Number(r.s) });
    }
    return out;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** b - a per collection (a collection absent from a counts as zero). */
export function counterDelta(a: StoreCounters, b: StoreCounters): StoreCounters {
  const out: StoreCounters = new Map();
  for (const [name, v] of b) {
    const before = a.get(name) ?? { writes: 0, seqScans: 0 };
    out.set(name, { writes: v.writes - before.writes, seqScans: v.seqScans - before.seqScans });
  }
  return out;
}

export function totalWrites(c: StoreCounters): number {
  let n = 0;
  for (const v of c.values()) n += v.writes;
  return n;
}
