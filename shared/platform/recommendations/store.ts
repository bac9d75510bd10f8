import { randomBytes } from 'node:crypto';
import { getConfig } from '../config';
import { luaScript } from '../db/luaScript';
import { readRowsSince } from '../db/rowsSince';
import { isRecord } from '../../domain/records';
import { key, redis, tag } from '../db/redis';
import { findAllRecommendationRowSources, findRecommendationsByIds } from '../db/repositories/ai';
import { insertionIndex, newestFirst, pageOf, rowOf, type RecommendationRow, type RowFilter, type RowSource, type RowWriter } from '../../domain/recommendations/rows';
import { processMemo } from '../processScope';

type RecommendationDoc = Awaited<ReturnType<typeof findRecommendationsByIds>>[number];

/**
 * The betting-recommendations list's read model in Redis, written by the AI worker as it inserts
 * and by settlement as it grades, read by the web processes a change at a time, so a page of
 * `/v2/ai/betting-recommendations` neither counts nor sorts the collection:
 * - `recommendations:<db>:rows`: id -> row JSON (shared/domain/recommendations/rows.ts);
 * - `seq` and `changes`: every write takes the next sequence number and records it against its
 *   id, so a reader asks only for the rows written since the last number it saw;
 * - `valid`: the generation the rows are complete at. Missing (a Redis restarted empty, or the
 *   hourly expiry) means the next reader merges the store's rows in (the higher-ranked write wins)
 *   under a new generation, which every reader then reads whole.
 * Every write is idempotent and publishes what the store holds after it, so a job retried after
 * a crash between its store write and its publish publishes it then; the hourly rebuild is the
 * backstop for a job that never ran again. A web process keeps the rows sorted in memory and the
 * bodies of the pages it served (a body is read again once its row says settlement changed it).
 */

// One hash tag: every script uses the four keys together.
const k = (part: string) => key(tag('recommendations', getConfig().MONGODB_DB), part);
const keys = () => [k('rows'), k('seq'), k('changes'), k('valid')];

const REBUILD_EVERY_S = 3600;
/** Bodies kept per web process: the pages clients read are the first few of a handful of filters. */
const BODIES_KEPT = 5000;

// KEYS: rows, seq, changes, valid. ARGV: id, rank, row JSON, ... Writes each row that outranks the stored one.
const PUBLISH = luaScript(
  `
local n = 0
for i = 1, #ARGV, 3 do
  local cur = redis.call('HGET', KEYS[1], ARGV[i])
  if not cur or tonumber(cjson.decode(cur).o) <= tonumber(ARGV[i + 1]) then
    if cur ~= ARGV[i + 2] then
      local s = redis.call('INCR', KEYS[2])
      redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
      redis.call('ZADD', KEYS[3], s, ARGV[i])
      n = n + 1
    end
  end
end
return n
`,
  4,
);

// KEYS: rows, seq, changes, valid. ARGV: new generation, seconds valid, then id, rank, row JSON, ...
const REBUILD = luaScript(
  `
for i = 3, #ARGV, 3 do
  local cur = redis.call('HGET', KEYS[1], ARGV[i])
  if not cur or tonumber(cjson.decode(cur).o) <= tonumber(ARGV[i + 1]) then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
end
redis.call('DEL', KEYS[3])
redis.call('SET', KEYS[4], ARGV[1], 'EX', ARGV[2])
return 1
`,
  4,
);

const rowArgs = (docs: readonly RowSource[], writer: RowWriter) =>
  docs.flatMap((d) => {
    const row = rowOf(d, writer);
    return [String(d._id), row.o, JSON.stringify(row)];
  });

/**
 * Recommendations as the store holds them after a write (inserted, found already stored, or
 * graded): each replaces the model's row unless the model holds a later write.
 */
export async function publishRecommendationRows(docs: readonly RowSource[], writer: RowWriter): Promise<void> {
  if (docs.length) await PUBLISH(redis(), ...keys(), ...rowArgs(docs, writer));
}

class Invalid extends Error {}

interface Model {
  /** The rows key the model was read from: a process that moves to another database or prefix (a test file) starts afresh. */
  ns: string;
  gen: string;
  seq: string;
  rows: Map<string, RecommendationRow>;
  /** Every row, newest first. */
  sorted: [string, RecommendationRow][];
}

const kept = processMemo((): { model?: Model; bodies: Map<string, { version: string; doc: RecommendationDoc }> } => ({ bodies: new Map() }));
let syncing: Promise<Model> | undefined;
let rebuilding: Promise<Model> | undefined;

function parseRow(json: string): RecommendationRow {
  const row: unknown = JSON.parse(json);
  if (!isRecord(row) || typeof row.c !== 'number' || typeof row.e !== 'string' || typeof row.f !== 'string' || typeof row.o !== 'number' || typeof row.v !== 'string') {
    throw new TypeError(`not a recommendations row: ${json}`);
  }
  return { c: row.c, e: row.e, f: row.f, s: row.s === 1 ? 1 : 0, r: typeof row.r === 'string' ? row.r : null, o: row.o, v: row.v };
}

/** Applies changed rows, keeping `sorted` sorted: a row's createdAt never changes, so a known id keeps its place. */
function apply(model: Pick<Model, 'rows' | 'sorted'>, flat: string[]): void {
  const added: [string, RecommendationRow][] = [];
  for (let i = 0; i < flat.length; i += 2) {
    if (!flat[i + 1]) continue;
    const id = flat[i];
    const row = parseRow(flat[i + 1]);
    const known = model.rows.get(id);
    model.rows.set(id, row);
    if (known && known.c === row.c) {
      const at = insertionIndex(model.sorted, [id, known]);
      if (model.sorted[at]?.[0] === id) model.sorted[at] = [id, row];
      continue;
    }
    if (known) model.sorted.splice(insertionIndex(model.sorted, [id, known]), 1);
    added.push([id, row]);
  }
  if (added.length > 64) {
    model.sorted.push(...added);
    model.sorted.sort(newestFirst);
  } else {
    for (const entry of added) model.sorted.splice(insertionIndex(model.sorted, entry), 0, entry);
  }
}

async function rebuild(): Promise<Model> {
  const gen = randomBytes(8).toString('hex');
  await REBUILD(redis(), ...keys(), gen, REBUILD_EVERY_S, rowArgs(await findAllRecommendationRowSources(), 'insert'));
  return read();
}

async function read(): Promise<Model> {
  const ns = keys()[0];
  const memo = kept();
  if (memo.model && memo.model.ns !== ns) {
    memo.model = undefined;
    memo.bodies.clear();
  }
  const { model } = memo;
  const out = await readRowsSince(redis(), keys(), model?.gen ?? '', model?.seq ?? '');
  if (!out) throw new Invalid();
  const { gen, seq, whole, flat } = out;
  const next = whole || !model ? { rows: new Map<string, RecommendationRow>(), sorted: [] } : model;
  apply(next, flat);
  memo.model = { ns, gen, seq, rows: next.rows, sorted: next.sorted };
  return memo.model;
}

/** The model as of now: while it is invalid, a process that holds one serves it and rebuilds in the background. */
async function current(): Promise<Model> {
  syncing ??= read().finally(() => (syncing = undefined));
  try {
    return await syncing;
  } catch (err) {
    if (!(err instanceof Invalid)) throw err;
    rebuilding ??= rebuild().finally(() => (rebuilding = undefined));
    const { model } = kept();
    if (model) {
      rebuilding.catch(() => undefined);
      return model;
    }
    return rebuilding;
  }
}

/** A body is read again once settlement changed what its row says of it. */
const bodyVersion = (row: RecommendationRow) => `${row.o}:${row.v}`;

/**
 * Page `page` of `limit` of the recommendations matching `filter`, newest first, and how many
 * match: the ids and the count from memory, the bodies from memory or read by id.
 */
export async function recommendationsPage(filter: RowFilter, page: number, limit: number): Promise<{ count: number; docs: RecommendationDoc[] }> {
  const model = await current();
  const { ids, count } = pageOf(model.sorted, filter, page, limit);
  const { bodies } = kept();
  const missing = ids.filter((id) => bodies.get(id)?.version !== bodyVersion(model.rows.get(id)!));
  if (missing.length) {
    for (const doc of await findRecommendationsByIds(missing)) {
      const row = model.rows.get(doc._id);
      if (!row) continue;
      bodies.delete(doc._id);
      bodies.set(doc._id, { version: bodyVersion(row), doc });
    }
    // Least recently stored first: a Map iterates in insertion order.
    for (const id of bodies.keys()) {
      if (bodies.size <= BODIES_KEPT) break;
      bodies.delete(id);
    }
  }
  const docs: RecommendationDoc[] = [];
  for (const id of ids) {
    const body = bodies.get(id);
    if (body) docs.push(body.doc);
  }
  return { count, docs };
}

/** Tests that write the store behind the read model's back: the model is dropped, and rebuilt by its next reader. */
export async function forgetRecommendations(): Promise<void> {
  await redis().del(...keys());
  kept().model = undefined;
  kept().bodies.clear();
}
