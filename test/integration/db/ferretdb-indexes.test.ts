import { expect } from 'chai';
import mongoose, { type Connection } from 'mongoose';
import { Client } from 'pg';
import { getConfig } from '../../../shared/platform/config';
import { createDeclaredIndexes, ensureFerretPostgresIndexes, ginIndexName, jsonbExpression, planFerretIndexes } from '../../../shared/platform/db/ferretIndexes';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { ALL_MODELS, ApiKey, Event, EventPrices, EventSettlement, EventView, LiveEventData, OddsHistory, Pick, Recommendation } from '../../../shared/platform/db/models';

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

  it('happy: connecting creates a GIN index per key the models mark gin and on _id of every collection read by id, and a second run creates none', async () => {
    const created = await ensureFerretPostgresIndexes(pgUrl, dbName, models());
    const names = new Set((await pg.query('SELECT indexname FROM pg_indexes WHERE schemaname = $1', [dbName])).rows.map((r) => r.indexname as string));
    // Every collection is read or updated by _id, but oddshistory: insert-only, read by eventId.
    for (const m of ALL_MODELS) expect(names.has(ginIndexName(await table(m.collection.collectionName), '_id')), m.modelName).to.equal(m !== OddsHistory);
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

/** A deterministic stream of numbers in [0, 1) (mulberry32): the same documents, statistics and plans on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The event aggregate's collections. */
const EVENT_AGGREGATE = [Event, EventPrices, LiveEventData, OddsHistory, EventView, EventSettlement];

const OPEN = { $in: ['upcoming', 'live'] };
const SINCE = new Date('2026-01-01T00:00:00Z');
const DAY = 86_400_000;

/**
 * Each GIN index left on the event aggregate, with a named read that uses it: the read's own filter
 * (a find, or the aggregate a countDocuments sends), which FerretDB pushes down in part or whole.
 * The model files name the same reads beside each index (shared/platform/db/models/*.ts, `gin`).
 */
const READS: { read: string; collection: string; filter: Record<string, unknown>; count?: true; gin: string }[] = [
  { read: 'eventForms.ts:findEventById (match detail); every update of an event by id', collection: 'events', filter: { _id: '701234' }, gin: '_id' },
  { read: 'events.ts:findLiveEventIdsOfProvider (every ingest poll)', collection: 'events', filter: { dataSource: 'simulated', status: 'live' }, gin: 'status' },
  { read: 'eventForms.ts:findEventsLivePage (the live list)', collection: 'events', filter: { status: 'live' }, gin: 'status' },
  { read: "events.ts:countEventsMatching (the live list's count)", collection: 'events', filter: { status: 'live' }, count: true, gin: 'status' },
  { read: "eventForms.ts:findEventsListPageByStart (a competition's match list)", collection: 'events', filter: { status: OPEN, competitionId: 304 }, gin: 'competitionId' },
  { read: 'events.ts:findCompetitionCopyInAnEvent', collection: 'events', filter: { competitionId: 304 }, gin: 'competitionId' },
  { read: "eventForms.ts:findEventsListPageByStart (a sport's match list)", collection: 'events', filter: { status: OPEN, sportId: 3 }, gin: 'sportId' },
  {
    read: 'events.ts:findCompletedEventScoresOfSport (the refit)',
    collection: 'events',
    filter: { sportId: 3, status: 'completed', voided: { $ne: true }, startDateTime: { $gte: SINCE, $lte: new Date(SINCE.getTime() + 60 * DAY) } },
    gin: 'sportId',
  },
  { read: 'eventForms.ts:findPricesOfEvents (every event read); ingest price writes by id', collection: 'eventprices', filter: { _id: '701234' }, gin: '_id' },
  { read: 'events.ts:findLiveEventDataOfEvent (match detail, settle-bet)', collection: 'liveeventdata', filter: { eventId: '701234' }, gin: 'eventId' },
  { read: 'eventForms.ts:findLiveDataOfEvents (the live list), events.ts:findIngestStateRows; ingest writes by id', collection: 'liveeventdata', filter: { _id: '701234' }, gin: '_id' },
  { read: 'events.ts:findPriceHistoryOfItem', collection: 'oddshistory', filter: { eventId: '700042' }, gin: 'eventId' },
  { read: 'eventViews.ts:findViewsOfEvents, raiseEventViewsTo (the view flush)', collection: 'eventviews', filter: { _id: '701234' }, gin: '_id' },
  { read: 'eventSettlements.ts:findSettledVersions, markEventsSettledAtVersions', collection: 'eventsettlements', filter: { _id: '701234' }, gin: '_id' },
];

/**
 * The indexes of the event aggregate earn their cost: on FerretDB each table carries the unique
 * `_id` index FerretDB makes and the GIN indexes of READS, nothing else, and each GIN index is
 * proven used by its named read through FerretDB's explain, on data shaped as a deployment holds it
 * (3,000 events over 8 sports, 40 competitions and 29 regions, most completed and few live).
 */
describe('FerretDB on PostgreSQL: the indexes of the event aggregate, each used by a named read', function () {
  this.timeout(300000);
  const pgUrl = getConfig().FERRETDB_POSTGRES_URL;
  const dbName = `${getConfig().MONGODB_DB}_evidx`;
  let conn: Connection;
  let pg: Client;
  const on = (model: (typeof ALL_MODELS)[number]) => conn.model(model.modelName, model.schema);
  const table = async (collection: string) => (await pg.query(`SELECT _jsonb->>'table' AS t FROM "${dbName}"._ferretdb_database_metadata WHERE _jsonb->>'_id' = $1`, [collection])).rows[0].t as string;

  before(async function () {
    if (!pgUrl) return this.skip();
    await connectMongo();
    conn = mongoose.connection.useDb(dbName, { useCache: false });
    pg = new Client({ connectionString: pgUrl });
    await pg.connect();
  });

  after(async () => {
    await conn?.dropDatabase();
    await pg?.end();
  });

  /** How a PostgreSQL index reads in a failure: a GIN of ours by its name, any other by its definition. */
  const label = (r: { indexname: string; indexdef: string }) => (r.indexname.endsWith('_gin') ? r.indexname : r.indexdef.replace(/ ON \S+/, '').replace(/ INDEX \S+/, ' INDEX'));
  const FERRET_ID = `CREATE UNIQUE INDEX USING btree (((_jsonb -> '_id'::text)))`;

  it("happy: indexed as at connect, each table of the event aggregate carries FerretDB's unique _id index and the GIN indexes of the named reads, nothing else (what an earlier version made is dropped)", async () => {
    const models = ALL_MODELS.map(on);
    await ensureFerretPostgresIndexes(pgUrl, dbName, models);
    const events = await table('events');
    // An earlier version's: btree indexes FerretDB made for createIndexes, and a GIN index for a read that is gone.
    await on(Event).collection.createIndex({ status: 1, startDateTime: 1 });
    await on(Event).collection.createIndex({ 'homeTeam.id': 1 });
    await on(EventView).collection.createIndex({ views: -1 });
    await pg.query(`CREATE INDEX "${ginIndexName(events, 'homeTeam.id')}" ON "${dbName}"."${events}" USING gin ((${jsonbExpression('homeTeam.id')}) jsonb_path_ops)`);

    // What connectMongo does on FerretDB.
    await createDeclaredIndexes(models, true);
    await ensureFerretPostgresIndexes(pgUrl, dbName, models);

    for (const m of EVENT_AGGREGATE) {
      const collection = m.collection.collectionName;
      const t = await table(collection);
      const rows = (await pg.query('SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2', [dbName, t])).rows;
      const gins = READS.filter((r) => r.collection === collection).map((r) => ginIndexName(t, r.gin));
      expect(rows.map(label).sort(), collection).to.deep.equal([FERRET_ID, ...new Set(gins)].sort());
    }
    // Unique indexes stay on FerretDB: they are constraints (one link per record, one ledger entry per position).
    expect((await on(ApiKey).collection.indexes()).map((i) => i.name)).to.have.members(['_id_', 'hash_1']);
  });

  it('happy: READS covers every GIN index the models call for on the event aggregate', async () => {
    await ensureFerretPostgresIndexes(pgUrl, dbName, ALL_MODELS.map(on));
    const tables = new Map<string, string>();
    for (const m of EVENT_AGGREGATE) tables.set(m.collection.collectionName, await table(m.collection.collectionName));
    const planned = planFerretIndexes(EVENT_AGGREGATE, tables, dbName).map((p) => p.index);
    expect([...new Set(READS.map((r) => ginIndexName(tables.get(r.collection)!, r.gin)))].sort()).to.deep.equal(planned.sort());
  });

  it('happy: on the event aggregate as a deployment holds it (analyzed), each named read runs as an index scan on its GIN index, through FerretDB', async () => {
    await ensureFerretPostgresIndexes(pgUrl, dbName, ALL_MODELS.map(on));
    const rnd = random(42);
    const name = (s: string) => ({ en: s, es: `${s} (es)`, pt: `${s} (pt)` });
    const prices = (n: number) => Array.from({ length: n }, () => Math.round((1.01 + rnd() * 9) * 1000) / 1000);
    const statuses = (x: number) => (x < 0.62 ? 'completed' : x < 0.95 ? 'upcoming' : x < 0.98 ? 'live' : x < 0.99 ? 'postponed' : 'cancelled');
    const ids = Array.from({ length: 3000 }, (_, i) => String(700000 + i));
    const events = ids.map((_id, i) => {
      const sportId = 1 + Math.floor(rnd() * 8);
      const status = statuses(rnd());
      const played = status === 'completed' || status === 'live';
      return {
        _id,
        sportId,
        competitionId: sportId * 100 + 1 + Math.floor(rnd() * 5),
        regionId: 1 + Math.floor(rnd() * 29),
        homeTeam: { id: 2 * i, name: name(`Home ${i}`), regionId: 1 },
        awayTeam: { id: 2 * i + 1, name: name(`Away ${i}`), regionId: 1 },
        competition: { id: sportId * 100, name: name(`Competition ${sportId}`) },
        region: { id: 1, name: name('Region') },
        startDateTime: new Date(SINCE.getTime() + Math.floor(rnd() * 120) * DAY),
        status,
        voided: false,
        startedAt: played ? new Date() : null,
        stats: played ? { homeGoals: Math.floor(rnd() * 4), awayGoals: Math.floor(rnd() * 4), homeCorners: 5, awayCorners: 3, phase: 'FT' } : null,
        resultVersion: played ? 1 : 0,
        dataSource: 'simulated',
        closingLine: status === 'completed' ? { m1: prices(60), m2: prices(60) } : null,
      };
    });
    const docs = {
      events,
      eventprices: ids.map((_id) => ({
        _id,
        dataSource: 'simulated',
        markets: [{ id: `${_id}1`, betTypeSysname: 'ML', betItems: prices(80).map((price, k) => ({ id: `${_id}1${k}`, code: `c${k}`, price })) }],
        movedAt: new Date(),
      })),
      liveeventdata: events.filter((e) => e.stats).map((e) => ({ _id: e._id, eventId: e._id, homeGoals: 1, awayGoals: 0, phaseSysname: 'FT', isLive: e.status === 'live', dataSource: 'simulated' })),
      oddshistory: Array.from({ length: 5000 }, (_, i) => ({
        _id: `${ids[i % 500]}|simulated|${i}`,
        eventId: ids[i % 500],
        dataSource: 'simulated',
        at: new Date(SINCE.getTime() + i),
        items: [{ id: `${ids[i % 500]}1`, price: 2 }],
      })),
      eventviews: ids.filter(() => rnd() < 0.7).map((_id) => ({ _id, views: Math.floor(rnd() * 500) })),
      eventsettlements: events.filter((e) => e.status === 'completed').map((e) => ({ _id: e._id, settledVersion: 1, settledAt: new Date() })),
    };
    for (const [collection, list] of Object.entries(docs)) {
      for (let i = 0; i < list.length; i += 1000) await conn.db!.collection(collection).insertMany(list.slice(i, i + 1000) as never[]);
      await pg.query(`ANALYZE "${dbName}"."${await table(collection)}"`);
    }

    for (const r of READS) {
      const command = r.count ? { aggregate: r.collection, pipeline: [{ $match: r.filter }, { $group: { _id: 1, n: { $sum: 1 } } }], cursor: {} } : { find: r.collection, filter: r.filter };
      const res = await conn.db!.command({ explain: command });
      expect(res.filterPushdown, `${r.read}: FerretDB pushes the filter down`).to.equal(true);
      expect(indexScans(res.queryPlanner.Plan as PlanNode), r.read).to.include(ginIndexName(await table(r.collection), r.gin));
    }
  });
});
