import { createHash } from 'node:crypto';
import type { CreateIndexesOptions, IndexSpecification } from 'mongodb';
import type { Model, Schema } from 'mongoose';
import { Client } from 'pg';
import { declaredIndexes } from './models/define';
import { errorNumber, errorString } from '../errorFields';

/**
 * FerretDB 1.24's PostgreSQL backend stores each document in one `_jsonb` column and turns an
 * equality filter into `_jsonb->'field' @> '<value>'` (`_jsonb#>'{a,b}'` for a dotted path). The
 * indexes it makes for createIndexes are btree on `((_jsonb->'field'))`, which `@>` cannot use, and
 * it pushes down no `$in`, range, `$or`, sort or limit (checked with its explain), so no query ever
 * uses them: every filtered find, update and delete would scan its table (an update by _id
 * included: it looks the document up by `@>` before writing it). On FerretDB the declared indexes
 * are therefore made only where they are unique (the constraint is the point), and GIN indexes on
 * the `@>` expressions, which it does use, are made for the keys the models mark `gin` (each with
 * the named read that filters on it by equality: shared/platform/db/models/define.ts), so the list lives in
 * one place.
 */

/** FerretDB's table of collections per MongoDB database (PostgreSQL schema). */
const METADATA_TABLE = '_ferretdb_database_metadata';

/** The keys that get a GIN index: `_id` (lookups and updates by id) unless the model opts out, and those its declared indexes mark `gin`. */
export function ginFields(schema: Schema): string[] {
  const { indexes, ginOnId } = declaredIndexes(schema);
  const fields = new Set<string>(ginOnId ? ['_id'] : []);
  for (const [, { gin }] of indexes) for (const field of Object.keys(gin ?? {})) fields.add(field);
  return [...fields];
}

const sqlLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;
export const sqlIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The expression FerretDB writes for a filter on `field`, so that the planner matches it. */
export function jsonbExpression(field: string): string {
  const parts = field.split('.');
  return parts.length === 1 ? `_jsonb -> ${sqlLiteral(field)}` : `_jsonb #> ${sqlLiteral(`{${parts.join(',')}}`)}`;
}

export function ginIndexName(table: string, field: string): string {
  const name = `${table}_${field.replace(/[^A-Za-z0-9]/g, '_').toLowerCase()}_gin`;
  return name.length <= 63 ? name : `${table.slice(0, 40)}_${createHash('sha1').update(field).digest('hex').slice(0, 8)}_gin`;
}

export interface FerretIndexPlan {
  collection: string;
  table: string;
  field: string;
  index: string;
  sql: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyModel = Model<any>;

async function tablesOf(client: Client, database: string): Promise<Map<string, string>> {
  const exists = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [`${sqlIdent(database)}.${METADATA_TABLE}`]);
  if (!exists.rows[0].t) return new Map();
  const rows = await client.query<{ name: string; tbl: string }>(`SELECT _jsonb->>'_id' AS name, _jsonb->>'table' AS tbl FROM ${sqlIdent(database)}.${METADATA_TABLE}`);
  return new Map(rows.rows.map((r) => [r.name, r.tbl]));
}

/** The GIN indexes the models call for, on the tables FerretDB made for their collections. */
export function planFerretIndexes(models: readonly AnyModel[], tables: Map<string, string>, database: string): FerretIndexPlan[] {
  const out: FerretIndexPlan[] = [];
  for (const model of models) {
    const table = tables.get(model.collection.collectionName);
    if (!table) continue;
    for (const field of ginFields(model.schema)) {
      const index = ginIndexName(table, field);
      out.push({
        collection: model.collection.collectionName,
        table,
        field,
        index,
        sql: `CREATE INDEX IF NOT EXISTS ${sqlIdent(index)} ON ${sqlIdent(database)}.${sqlIdent(table)} USING gin ((${jsonbExpression(field)}) jsonb_path_ops)`,
      });
    }
  }
  return out;
}

/**
 * The planner setting FerretDB's database needs for those indexes to be used (measured, 406 events
 * of 6.7 kB): a document's `_jsonb` is TOASTed, so the table's heap is a few pages and PostgreSQL
 * prices a sequential scan below the GIN lookup, then decompresses every document to evaluate
 * `->` on it: 19 ms per lookup by _id, against 0.03 ms through the GIN index. Evaluating an
 * operator on such a row costs far more than the default cpu_operator_cost (0.0025) says; at 0.25
 * a selective filter takes its index and one that matches most rows still scans. FerretDB also
 * sends its filters as prepared statements (`_jsonb->$1 @> $2`), whose generic plan cannot use an
 * expression index: PostgreSQL takes it after five runs when it looks no dearer than the custom
 * plans plus their planning, which it prices at 1000 x cpu_operator_cost, so the setting above
 * alone made it take the scan every time. plan_cache_mode = force_custom_plan plans each run with
 * its values. (`enable_seqscan = off` makes lookups as fast, but with the API polled the pipeline
 * bench's polls take 34 s instead of 5 s.) Connections take these when they open: the
 * local bootstrap sets them before it starts FerretDB, and every process sets them at connect.
 */
export const FERRET_DATABASE_SETTINGS: Readonly<Record<string, string>> = { cpu_operator_cost: '0.25', plan_cache_mode: 'force_custom_plan' };

/** Idempotent: sets FERRET_DATABASE_SETTINGS on the database `client` is connected to. */
export async function tuneFerretDatabase(client: Client): Promise<void> {
  const db = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0].db;
  for (const [name, value] of Object.entries(FERRET_DATABASE_SETTINGS)) await client.query(`ALTER DATABASE ${sqlIdent(db)} SET ${name} = ${sqlLiteral(value)}`);
}

/**
 * Creates the indexes the models declare. On MongoDB, all of them. On FerretDB, only the unique
 * ones, and it drops any other found there (`_id_` stays: FerretDB's own,
 * unique): FerretDB uses none of them for a query, and each costs on every write.
 */
export async function createDeclaredIndexes(models: readonly AnyModel[], onFerretDB: boolean): Promise<void> {
  if (!onFerretDB) {
    await Promise.all(models.map((m) => m.createIndexes()));
    return;
  }
  await Promise.all(
    models.map(async (m) => {
      const keep = new Set(['_id_']);
      for (const [keys, options] of m.schema.indexes()) if (options?.unique) keep.add(await m.collection.createIndex(keys as IndexSpecification, options as CreateIndexesOptions));
      const existing = await m.collection.indexes().catch(ignore(NAMESPACE_NOT_FOUND, []));
      for (const { name } of existing) if (name && !keep.has(name)) await m.collection.dropIndex(name).catch(ignore(INDEX_NOT_FOUND, undefined));
    }),
  );
}

const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

/** A catch handler that answers `value` for the server error `code` (another process was first, or nothing to list) and rethrows any other. */
function ignore<T>(code: number, value: T): (err: unknown) => T {
  return (err) => {
    if (errorNumber(err, 'code') === code) return value;
    throw err;
  };
}

/**
 * Idempotent: creates the missing GIN indexes for the models' collections in FerretDB's schema
 * for `database`, making the collections first (FerretDB creates tables lazily), and drops the GIN
 * indexes of ours on those tables that no declared index calls for any longer. Processes that
 * connect at once take turns through an advisory lock. Returns the names of the indexes created.
 */
export async function ensureFerretPostgresIndexes(postgresUrl: string, database: string, models: readonly AnyModel[]): Promise<string[]> {
  const client = new Client({ connectionString: postgresUrl, connectionTimeoutMillis: 10000 });
  await client.connect();
  try {
    let tables = await tablesOf(client, database);
    const missing = models.filter((m) => !tables.has(m.collection.collectionName));
    if (missing.length) {
      await Promise.all(missing.map((m) => m.createCollection().catch(ignoreExisting)));
      tables = await tablesOf(client, database);
    }
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`ferret-indexes:${database}`]);
    await tuneFerretDatabase(client);
    const plan = planFerretIndexes(models, tables, database);
    const existing = await client.query<{ tablename: string; indexname: string }>('SELECT tablename, indexname FROM pg_indexes WHERE schemaname = $1', [database]);
    const names = new Set(existing.rows.map((r) => r.indexname));
    const created: string[] = [];
    for (const p of plan.filter((x) => !names.has(x.index))) {
      await client.query(p.sql);
      created.push(p.index);
    }
    const wanted = new Set(plan.map((p) => p.index));
    const ours = new Set(models.map((m) => tables.get(m.collection.collectionName)));
    for (const r of existing.rows)
      if (ours.has(r.tablename) && r.indexname.endsWith('_gin') && !wanted.has(r.indexname)) await client.query(`DROP INDEX IF EXISTS ${sqlIdent(database)}.${sqlIdent(r.indexname)}`);
    return created;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function ignoreExisting(err: unknown): void {
  if (errorNumber(err, 'code') !== 48 && errorString(err, 'codeName') !== 'NamespaceExists') throw err;
}
