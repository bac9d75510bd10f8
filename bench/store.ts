/**
 * `npm run bench:store [-- --docs 5000 --ops 50]`: the embedded store's speed per operation at
 * N recommendation-shaped documents, for FerretDB 1.24 on SQLite, on PostgreSQL as it indexes
 * by itself, and on PostgreSQL with the GIN indexes shared/platform/db/ferretIndexes.ts adds. Measures
 * updateOne by _id (what ingest and settlement do per document) and find by eventId (10 matches).
 * Starts its own FerretDB processes and drops what it created.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import mongoose, { type Connection } from 'mongoose';
import { Client } from 'pg';
import { dropDatabase, ensurePostgres, withDatabase } from '../scripts/postgres';
import { ensureFerretBinary, startFerret } from '../scripts/services';
import { bootstrapEnv } from '../shared/platform/config';
import {
  createRecommendationIndexesOn,
  ensureRecommendationGinIndexesOn,
  findRecommendationsOfEventRaw,
  insertRecommendationsRaw,
  setRecommendationEdgeRaw,
} from '../shared/platform/db/repositories/ai';
import { integer } from './args';

const DOCS = integer('bench:store', 'docs', 5000, 100_000);
const OPS = integer('bench:store', 'ops', 50, 10_000);
const DB = 'bench_store';
const say = (m: string) => process.stderr.write(`[bench:store] ${m}\n`);

const doc = (i: number) => ({
  _id: `rec-${i}`,
  eventId: `ev-${Math.floor(i / 10)}`,
  settled: false,
  market: 'SOCCER_MATCH_RESULT',
  outcome: 'Home',
  bookmaker: 'bet365',
  odds: 1.5 + (i % 50) / 10,
  edgePercentage: i % 20,
  confidence: 'Medium',
  reasoning: 'x'.repeat(400),
  createdAt: new Date(),
});

async function measure(label: string, conn: Connection): Promise<{ label: string; update: number; find: number }> {
  let t = performance.now();
  for (let k = 0; k < OPS; k++) await setRecommendationEdgeRaw(conn, `rec-${(k * 97) % DOCS}`, k);
  const update = (performance.now() - t) / OPS;
  t = performance.now();
  for (let k = 0; k < OPS; k++) {
    const found = await findRecommendationsOfEventRaw(conn, `ev-${(k * 13) % (DOCS / 10)}`);
    if (found.length !== 10) throw new Error(`${label}: find by eventId returned ${found.length}, expected 10`);
  }
  return { label, update, find: (performance.now() - t) / OPS };
}

async function load(uri: string): Promise<Connection> {
  const conn = await mongoose.createConnection(uri, { dbName: DB, autoIndex: false }).asPromise();
  await conn.dropDatabase();
  for (let i = 0; i < DOCS; i += 1000)
    await insertRecommendationsRaw(
      conn,
      Array.from({ length: Math.min(1000, DOCS - i) }, (_, j) => doc(i + j)),
    );
  await createRecommendationIndexesOn(conn);
  return conn;
}

async function main(): Promise<void> {
  const bin = ensureFerretBinary();
  if (!bin) throw new Error('no FerretDB binary (install Go so the bootstrap can build it)');
  const rows: { label: string; update: number; find: number }[] = [];
  const sqliteDir = mkdtempSync(join(tmpdir(), 'bench-store-sqlite-'));
  const database = `ferretdb_bench_${process.pid}`;
  const pg = await ensurePostgres({ postgresUrl: bootstrapEnv().postgresUrl, clusterDir: resolve(__dirname, '..', '.local', 'postgres'), database, say });
  try {
    const sqlite = await startFerret(bin, { sqliteDir }, 'ferretdb-bench-sqlite');
    try {
      say(`FerretDB on SQLite: loading ${DOCS} documents`);
      const conn = await load(sqlite.uri);
      rows.push(await measure('FerretDB 1.24, SQLite', conn));
      await conn.close();
    } finally {
      await sqlite.stop();
      rmSync(sqliteDir, { recursive: true, force: true });
    }
    if (!pg) say('no PostgreSQL found or started: PostgreSQL rows skipped');
    else {
      const ferret = await startFerret(bin, { postgresqlUrl: pg.url }, 'ferretdb-bench-pg');
      const client = new Client({ connectionString: pg.url });
      await client.connect();
      try {
        say(`FerretDB on ${pg.kind}: loading ${DOCS} documents`);
        const conn = await load(ferret.uri);
        // Fresh statistics, as autovacuum would gather them, for both PostgreSQL rows.
        await client.query(`ANALYZE`);
        rows.push(await measure('FerretDB 1.24, PostgreSQL (its own btree indexes)', conn));
        const created = await ensureRecommendationGinIndexesOn(pg.url, DB, conn);
        await client.query(`ANALYZE`);
        say(`GIN indexes added: ${created.join(', ')}`);
        rows.push(await measure('FerretDB 1.24, PostgreSQL + GIN indexes', conn));
        await conn.close();
      } finally {
        await client.end();
        await ferret.stop();
      }
    }
  } finally {
    if (pg) await dropDatabase(withDatabase(pg.url, 'postgres'), database).catch((err: unknown) => say(`could not drop ${database}: ${(err as Error).message}`));
    await pg?.stop?.();
  }
  process.stdout.write(`\n${DOCS} documents, ${OPS} operations each\n\n| store | updateOne by _id | find by eventId (10 docs) |\n|---|---|---|\n`);
  for (const r of rows) process.stdout.write(`| ${r.label} | ${r.update.toFixed(1)} ms | ${r.find.toFixed(1)} ms |\n`);
}

main().catch((err) => {
  process.stderr.write(`bench:store failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
