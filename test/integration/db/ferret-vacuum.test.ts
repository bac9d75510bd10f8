import { expect } from 'chai';
import mongoose from 'mongoose';
import { Client } from 'pg';
import { getConfig } from '../../../shared/platform/config';
import { FerretVacuum, vacuumFerretTables } from '../../../shared/platform/db/ferretVacuum';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { waitUntil } from '../../helpers/processes';

/**
 * Against FerretDB's PostgreSQL backend (skipped elsewhere): updates through FerretDB leave dead
 * rows that this removes, whatever the server's autovacuum setting.
 */
describe("FerretDB on PostgreSQL: vacuuming the tables FerretDB's updates leave dead rows in", function () {
  this.timeout(120000);
  const cfg = getConfig();
  const dbName = `${cfg.MONGODB_DB}_vac`;
  let pg: Client;

  const activity = async (collection: string) => {
    const table = (await pg.query(`SELECT _jsonb->>'table' AS t FROM "${dbName}"._ferretdb_database_metadata WHERE _jsonb->>'_id' = $1`, [collection])).rows[0].t as string;
    const r = await pg.query('SELECT n_live_tup AS live, n_dead_tup AS dead, n_mod_since_analyze AS mod FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = $2', [dbName, table]);
    return { table, live: Number(r.rows[0]?.live ?? 0), dead: Number(r.rows[0]?.dead ?? 0), mod: Number(r.rows[0]?.mod ?? 0) };
  };

  /** 100 documents, each updated twice through FerretDB: 200 dead rows (the threshold is 50 + 0.2 x 100). */
  async function churn(collection: string): Promise<void> {
    const c = mongoose.connection.useDb(dbName, { useCache: false }).collection(collection);
    await c.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: `${collection}-${i}` as unknown as never, v: 0 })));
    for (let round = 1; round <= 2; round++) {
      for (let i = 0; i < 100; i += 20) {
        await c.bulkWrite(Array.from({ length: 20 }, (_, k) => ({ updateOne: { filter: { _id: `${collection}-${i + k}` as unknown as never }, update: { $set: { v: round } } } })));
      }
    }
  }

  before(async function () {
    if (!cfg.FERRETDB_POSTGRES_URL) return this.skip();
    await connectMongo();
    pg = new Client({ connectionString: cfg.FERRETDB_POSTGRES_URL });
    await pg.connect();
  });

  after(async () => {
    await mongoose.connection
      .useDb(dbName, { useCache: false })
      .dropDatabase()
      .catch(() => undefined);
    await pg?.end();
  });

  it('happy: a table past the threshold is vacuumed and analyzed, its dead rows gone; a quiet one is left alone', async () => {
    await churn('churned');
    const quiet = mongoose.connection.useDb(dbName, { useCache: false }).collection('quiet');
    await quiet.insertOne({ _id: 'q' as unknown as never, v: 1 });
    // The server's statistics arrive from FerretDB's connections within about a second.
    await waitUntil('the dead rows counted', async () => (await activity('churned')).dead >= 200, 20000, 250);
    const before = await activity('churned');

    const report = await vacuumFerretTables(pg, dbName);
    expect(report.ran).to.equal(true);
    expect(report.vacuumed).to.include(before.table);
    expect(report.vacuumed).not.to.include((await activity('quiet')).table);
    const after = await activity('churned');
    expect(after.dead, 'dead rows after the vacuum').to.equal(0);
    expect(after.mod, 'changes since the last analyze').to.equal(0);
    expect(after.live).to.equal(100);
    expect(await quiet.countDocuments()).to.equal(1);
  });

  it('happy: a second round right after finds nothing due', async () => {
    const report = await vacuumFerretTables(pg, dbName);
    expect(report).to.include({ ran: true });
    expect(report.vacuumed).to.deep.equal([]);
  });

  it('error: a round another process holds is skipped, not waited for; it runs once the lock is free', async () => {
    await churn('contended');
    await waitUntil('the dead rows counted', async () => (await activity('contended')).dead >= 200, 20000, 250);
    const other = new Client({ connectionString: cfg.FERRETDB_POSTGRES_URL });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(hashtext($1))', [`ferret-vacuum:${dbName}`]);
      const vacuum = new FerretVacuum(cfg.FERRETDB_POSTGRES_URL, dbName);
      try {
        expect(await vacuum.round()).to.include({ ran: false });
        expect((await activity('contended')).dead).to.be.at.least(200);
        await other.query('SELECT pg_advisory_unlock(hashtext($1))', [`ferret-vacuum:${dbName}`]);
        const report = await vacuum.round();
        expect(report.ran).to.equal(true);
        expect(report.vacuumed).to.include((await activity('contended')).table);
      } finally {
        await vacuum.close();
      }
    } finally {
      await other.end();
    }
  });
});
