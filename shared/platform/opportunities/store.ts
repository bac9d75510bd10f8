import { randomBytes } from 'node:crypto';
import { getConfig } from '../config';
import { luaScript } from '../db/luaScript';
import { readRowsSince } from '../db/rowsSince';
import { isRecord } from '../../domain/records';
import { key, redis, tag } from '../db/redis';
import { findRecommendationsByIdsBestEdgeFirst, findUpcomingInsightsOpportunityRows } from '../db/repositories/ai';
import { listingIndex } from '../../domain/listing/rows';
import { currentListing } from '../listing/store';
import { currentOpportunities, stillToStart, type OpportunityRow } from '../../domain/opportunities/rows';
import { processMemo } from '../processScope';

type RecommendationDoc = Awaited<ReturnType<typeof findRecommendationsByIdsBestEdgeFirst>>[number];

/**
 * The opportunities read model in Redis, written by the AI worker as it analyses and read by the
 * web processes a change at a time, so `/v2/ai/value-opportunities` never scans the insights:
 * - `opportunities:<db>:rows`: event id -> `{"a": analysed at (world ms), "ids": [recommendation ids]}`
 *   (`ids` empty once the event started: a tombstone the next rebuild drops);
 * - `seq` and `changes`: every write takes the next sequence number and records it against its
 *   event, so a reader asks only for the events written since the last number it saw;
 * - `valid`: the generation the rows are complete at. Missing (a Redis restarted empty, or the
 *   hourly expiry) means the next reader merges the store's rows in (a later write always wins)
 *   under a new generation, which every reader then reads whole.
 * A web process keeps the rows and the recommendations they name (insert-only until settled, and
 * a settled one's event has started) in memory.
 */

// One hash tag: every script uses the four keys together.
const k = (part: string) => key(tag('opportunities', getConfig().MONGODB_DB), part);
const keys = () => [k('rows'), k('seq'), k('changes'), k('valid')];

/** How long a rebuilt read model is trusted: a write a failed job never published is corrected within it. */
const REBUILD_EVERY_S = 3600;

// KEYS: rows, seq, changes, valid. ARGV: event id, analysed at, row JSON. Returns the sequence number, or 0 when a later analysis is stored.
const PUBLISH = luaScript(
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and tonumber(cjson.decode(cur).a) > tonumber(ARGV[2]) then return 0 end
local s = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[3], s, ARGV[1])
return s
`,
  4,
);

// KEYS: rows, seq, changes, valid. ARGV: new generation, seconds valid, then id, analysed at, row JSON, ...
// The store's rows merged in (a later write in Redis wins), tombstones dropped, a new generation.
const REBUILD = luaScript(
  `
for i = 3, #ARGV, 3 do
  local cur = redis.call('HGET', KEYS[1], ARGV[i])
  if not cur or tonumber(cjson.decode(cur).a) <= tonumber(ARGV[i + 1]) then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
end
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if string.find(all[i + 1], '"ids":[]', 1, true) then redis.call('HDEL', KEYS[1], all[i]) end
end
redis.call('DEL', KEYS[3])
redis.call('SET', KEYS[4], ARGV[1], 'EX', ARGV[2])
return 1
`,
  4,
);

const rowJson = (at: Date, ids: readonly string[]) => JSON.stringify({ a: at.getTime(), ids: [...ids] } satisfies OpportunityRow);

/** An event's pre-kickoff analysis written (its insight stored): its recommendations are the event's opportunities now. */
export async function publishAnalysis(eventId: string, analysedAt: Date, recommendationIds: readonly string[]): Promise<void> {
  await PUBLISH(redis(), ...keys(), eventId, analysedAt.getTime(), rowJson(analysedAt, recommendationIds));
}

/** The event started (or was called off) at `at`: it has no opportunities, whatever an older analysis still in flight publishes. */
export async function publishStarted(eventId: string, at: Date): Promise<void> {
  await PUBLISH(redis(), ...keys(), eventId, at.getTime(), rowJson(at, []));
}

/** The read model is not complete at any generation: rebuild it. */
class Invalid extends Error {}

interface Model {
  /** The rows key the model was read from: a process that moves to another database or prefix (a test file) starts afresh. */
  ns: string;
  gen: string;
  seq: string;
  rows: Map<string, OpportunityRow>;
}

// The model and the recommendations it names, in the process scope (shared/platform/processScope.ts).
const kept = processMemo((): { model?: Model; recs: Map<string, RecommendationDoc> } => ({ recs: new Map() }));
let syncing: Promise<Model> | undefined;
let rebuilding: Promise<Model> | undefined;

/** A stored row: when its event was analysed and its recommendations' ids. */
function parseRow(json: string): OpportunityRow {
  const row: unknown = JSON.parse(json);
  if (!isRecord(row) || typeof row.a !== 'number' || !Array.isArray(row.ids)) throw new TypeError(`not an opportunities row: ${json}`);
  const ids: unknown[] = row.ids;
  return { a: row.a, ids: ids.filter((id): id is string => typeof id === 'string') };
}

function apply(rows: Map<string, OpportunityRow>, flat: string[]): void {
  for (let i = 0; i < flat.length; i += 2) {
    const json = flat[i + 1];
    const row = json ? parseRow(json) : undefined;
    if (row && row.ids.length) rows.set(flat[i], row);
    else rows.delete(flat[i]);
  }
}

async function rebuild(now: Date): Promise<Model> {
  const gen = randomBytes(8).toString('hex');
  const stored = await findUpcomingInsightsOpportunityRows(now);
  const args = stored.flatMap((i) => {
    const at = i.analysisTimestamp ?? new Date(0);
    return [String(i._id), at.getTime(), rowJson(at, i.recommendationIds ?? [])];
  });
  await REBUILD(redis(), ...keys(), gen, REBUILD_EVERY_S, args);
  return read();
}

async function read(): Promise<Model> {
  const ns = keys()[0];
  const memo = kept();
  if (memo.model && memo.model.ns !== ns) {
    memo.model = undefined;
    memo.recs.clear();
  }
  const { model } = memo;
  const out = await readRowsSince(redis(), keys(), model?.gen ?? '', model?.seq ?? '');
  if (!out) throw new Invalid();
  const { gen, seq, whole, flat } = out;
  const rows = whole || !model ? new Map<string, OpportunityRow>() : model.rows;
  apply(rows, flat);
  memo.model = { ns, gen, seq, rows };
  return memo.model;
}

/**
 * The rows as of now. While the model is invalid, a process that holds rows serves them and
 * rebuilds in the background; a process with none waits for the rebuild.
 */
async function currentRows(now: Date): Promise<Map<string, OpportunityRow>> {
  syncing ??= read().finally(() => (syncing = undefined));
  try {
    return (await syncing).rows;
  } catch (err) {
    if (!(err instanceof Invalid)) throw err;
    rebuilding ??= rebuild(now).finally(() => (rebuilding = undefined));
    const { model } = kept();
    if (model) {
      rebuilding.catch(() => undefined);
      return model.rows;
    }
    return (await rebuilding).rows;
  }
}

/** The recommendations of every event still to start, best edge first: from memory, reading only what changed. */
export async function currentOpportunityRecommendations(now: Date): Promise<RecommendationDoc[]> {
  const [rows, listing] = await Promise.all([currentRows(now), currentListing()]);
  const index = listingIndex(listing);
  const wanted = new Set<string>();
  for (const [eventId, row] of rows) {
    if (stillToStart(index.get(eventId), now.getTime())) for (const id of row.ids) wanted.add(id);
  }
  const { recs } = kept();
  const missing = [...wanted].filter((id) => !recs.has(id));
  if (missing.length) for (const r of await findRecommendationsByIdsBestEdgeFirst(missing)) recs.set(r._id, r);
  for (const id of recs.keys()) if (!wanted.has(id)) recs.delete(id);
  return currentOpportunities(rows, index, now.getTime(), recs);
}

/** Tests that rewrite the store behind the read model's back: the model is dropped, and rebuilt by its next reader. */
export async function forgetOpportunities(): Promise<void> {
  await redis().del(...keys());
  kept().model = undefined;
  kept().recs.clear();
}
