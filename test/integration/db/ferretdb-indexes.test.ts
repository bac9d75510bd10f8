import { expect } from 'chai';
import mongoose, { type Connection } from 'mongoose';
import { Client } from 'pg';
import { getConfig } from '../../../shared/config';
import { ensureFerretPostgresIndexes, ginIndexName } from '../../../shared/db/ferretIndexes';
import { connectMongo } from '../../../shared/db/mongo';
import { ALL_MODELS, ApiKey, Event, LiveEventData, OddsHistory, Pick, Recommendation } from '../../../shared/db/models';

const DOCS = 5000;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const indexScans = (node: PlanNode): string[] => [...(/Index Scan/.test(node['Node Type']) && node['Index Name'] ? [node['Index Name']] : []), ...(node.Plans ?? []).flatMap(indexScans)];

/**
 * Proof, not belief: FerretDB's own `explain` runs PostgreSQL's EXPLAIN on the SQL it issues for a
 * find, so each hot equality filter below goes through FerretDB and the plan must name our GIN
 * index. Realistic counts (5,000 documents, statistics gathered as autovacuum would), no
 * enable_seqscan tricks. Only meaningful on FerretDB's PostgreSQL backend: skipped elsewhere.
 */
describe('FerretDB on PostgreSQL: the GIN indexes its @> filters use', function () {
  this.timeout(180000);
  const pgUrl = getConfig().FERRETDB_POSTGRES_URL;
  const dbName = `${getConfig().MONGODB_DB}_gin`;
  let conn: Connection;
  let pg: Client;
  const on = (model: (typeof ALL_MODELS)[number]) => conn.model(model.modelName, model.schema);
  const models = () => ALL_MODELS.map(on);

  before(async function () {
    if (!pgUrl) return this.skip();
    await connectMongo();
    // A database of its own: 5,000 events would show in the other files' listings.
    conn = mongoose.connection.useDb(dbName, { useCache: false });
    pg = new Client({ connectionString: pgUrl });
    await pg.connect();
  });

  after(async () => {
    await conn?.dropDatabase();
    await pg?.end();
  });

  const table = async (collection: string) => (await pg.query(`SELECT _jsonb->>'table' AS t FROM "${dbName}"._ferretdb_database_metadata WHERE _jsonb->>'_id' = $1`, [collection])).rows[0].t as string;

  it('happy: connecting creates a GIN index per declared equality field and _id on every collection, and a second run creates none', async () => {
    const created = await ensureFerretPostgresIndexes(pgUrl, dbName, models());
    const names = new Set((await pg.query('SELECT indexname FROM pg_indexes WHERE schemaname = $1', [dbName])).rows.map((r) => r.indexname as string));
    for (const m of ALL_MODELS) expect(names.has(ginIndexName(await table(m.collection.collectionName), '_id')), m.modelName).to.equal(true);
    for (const [model, field] of [
      [Recommendation, 'eventId'],
      [Recommendation, 'settled'],
      [OddsHistory, 'eventId'],
      [LiveEventData, 'eventId'],
      [Pick, 'eventIds'],
      [Event, 'status'],
      [ApiKey, 'hash'],
    ] as const) {
      const name = ginIndexName(await table(model.collection.collectionName), field);
      expect(names.has(name), name).to.equal(true);
      expect(created).to.include(name);
    }
    // Dates are ranges and sorts, never pushed down as equality: no index for them.
    expect(names.has(ginIndexName(await table('recommendations'), 'createdAt'))).to.equal(false);
    expect(await ensureFerretPostgresIndexes(pgUrl, dbName, models())).to.deep.equal([]);
  });

  it(`happy: at ${DOCS} documents the hot equality filters (by _id, eventId, an array member) run as Bitmap Index Scans on the GIN indexes, through FerretDB`, async () => {
    await ensureFerretPostgresIndexes(pgUrl, dbName, models());
    const recs = on(Recommendation).collection;
    const picks = on(Pick).collection;
    const docs = Array.from({ length: DOCS }, (_, i) => ({ _id: `r${i}`, eventId: `ev${i % 500}`, settled: i % 2 === 0, edgePercentage: i % 40 }));
    for (let i = 0; i < DOCS; i += 1000) {
      await recs.insertMany(docs.slice(i, i + 1000) as never[]);
      await picks.insertMany(docs.slice(i, i + 1000).map((d) => ({ _id: `p${d._id}`, eventIds: [d.eventId, `other${d._id}`] })) as never[]);
    }
    await pg.query(`ANALYZE "${dbName}"."${await table('recommendations')}", "${dbName}"."${await table('picks')}"`);
    const plan = async (collection: string, filter: object) => {
      const res = await conn.db!.command({ explain: { find: collection, filter } });
      expect(res.filterPushdown, 'FerretDB pushed the filter down to SQL').to.equal(true);
      return indexScans(res.queryPlanner.Plan as PlanNode);
    };
    expect(await plan('recommendations', { _id: 'r4321' })).to.deep.equal([ginIndexName(await table('recommendations'), '_id')]);
    expect(await plan('recommendations', { eventId: 'ev42' })).to.include(ginIndexName(await table('recommendations'), 'eventId'));
    expect(await plan('picks', { eventIds: 'ev42' })).to.deep.equal([ginIndexName(await table('picks'), 'eventIds')]);
    // The same filter FerretDB issues for an update looks the document up through the index too.
    const updated = await recs.updateOne({ _id: 'r4321' } as never, { $set: { edgePercentage: 99 } });
    expect(updated.modifiedCount).to.equal(1);
  });

  it('happy: documents large enough to be TOASTed (400 of about 7 kB, analyzed) are still looked up by _id through the GIN index, not by a scan that decompresses every one', async () => {
    await ensureFerretPostgresIndexes(pgUrl, dbName, models());
    const events = on(Event).collection;
    // Random prices do not compress: each document goes out of line, as a stored event with its markets does.
    const docs = Array.from({ length: 400 }, (_, i) => ({ _id: `e${i}`, status: 'upcoming', prices: Array.from({ length: 600 }, () => Math.round(Math.random() * 1e6) / 1e3) }));
    await events.insertMany(docs as never[]);
    const eventsTable = await table('events');
    await pg.query(`ANALYZE "${dbName}"."${eventsTable}"`);
    const fresh = new Client({ connectionString: pgUrl });
    await fresh.connect();
    try {
      expect((await fresh.query('SHOW cpu_operator_cost')).rows[0].cpu_operator_cost, 'a new connection to the database takes the setting').to.equal('0.25');
      // FerretDB's own statement shape, prepared: past the five runs after which PostgreSQL may take the generic plan.
      await fresh.query(`PREPARE by_field(text, jsonb) AS SELECT _jsonb FROM "${dbName}"."${eventsTable}" WHERE _jsonb->$1 @> $2`);
      for (let i = 0; i < 8; i++) await fresh.query(`EXECUTE by_field('_id', '"e${i}"')`);
      const prepared = await fresh.query(`EXPLAIN (FORMAT JSON) EXECUTE by_field('_id', '"e9"')`);
      expect(indexScans(prepared.rows[0]['QUERY PLAN'][0].Plan as PlanNode), 'the prepared statement after 8 runs').to.deep.equal([ginIndexName(eventsTable, '_id')]);
    } finally {
      await fresh.end();
    }
    for (let i = 0; i < 8; i++) {
      // Past the five runs after which PostgreSQL may switch a prepared statement to its generic plan.
      const res = await conn.db!.command({ explain: { find: 'events', filter: { _id: `e${i * 7}` } } });
      expect(indexScans(res.queryPlanner.Plan as PlanNode), `run ${i + 1}`).to.deep.equal([ginIndexName(eventsTable, '_id')]);
    }
    expect((await events.findOne({ _id: 'e42' } as never))?.prices).to.have.length(600);
    // A filter most documents match is still read by a scan, not through the index.
    const all = await conn.db!.command({ explain: { find: 'events', filter: { status: 'upcoming' } } });
    expect(indexScans(all.queryPlanner.Plan as PlanNode)).to.deep.equal([]);
  });

  it('error: a filter FerretDB does not push down ($in) is not claimed to use an index', async () => {
    const res = await conn.db!.command({ explain: { find: 'recommendations', filter: { eventId: { $in: ['ev1', 'ev2'] } } } });
    expect(res.filterPushdown).to.equal(false);
    expect(indexScans(res.queryPlanner.Plan as PlanNode)).to.deep.equal([]);
  });
});
