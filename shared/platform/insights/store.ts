import { randomBytes } from 'node:crypto';
import { getConfig } from '../config';
import { luaScript } from '../db/luaScript';
import { readRowsSince } from '../db/rowsSince';
import { key, redis, tag } from '../db/redis';
import { findAllInsightsAnalysisTimestamp, findInsightsByIds } from '../db/repositories/ai';
import { processMemo } from '../processScope';

type InsightDoc = Awaited<ReturnType<typeof findInsightsByIds>>[number];

/**
 * Which events have an insight, and of which analysis, in Redis: written by the AI worker after
 * it writes an insight, read by the web processes a change at a time, so a page of
 * `/v2/ai/processed-insights` neither looks up events the AI never analysed nor reads again a
 * body it already holds:
 * - `insights:<db>:rows`: event id -> the analysis time (ms) of its stored insight;
 * - `seq` and `changes`: every write takes the next sequence number and records it against its
 *   event, so a reader asks only for the events written since the last number it saw;
 * - `valid`: the generation the rows are complete at. Missing (a Redis restarted empty, or the
 *   hourly expiry) means the next reader merges the store's versions in (a later analysis wins)
 *   under a new generation, which every reader then reads whole.
 * A publish follows the store's write, so a job retried after a crash in between publishes then;
 * the hourly rebuild is the backstop for one that never ran again. The insight's status is not
 * its version: the listing says each event's current status, and the page renders that.
 */

// One hash tag: every script uses the four keys together.
const k = (part: string) => key(tag('insights', getConfig().MONGODB_DB), part);
const keys = () => [k('rows'), k('seq'), k('changes'), k('valid')];

const REBUILD_EVERY_S = 3600;
/** Bodies kept per web process: the pages clients read are the first few of a handful of filters. */
const BODIES_KEPT = 5000;

// KEYS: rows, seq, changes, valid. ARGV: event id, analysed at (ms). Returns 1 when written, 0 when a later analysis is published.
const PUBLISH = luaScript(
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and tonumber(cur) >= tonumber(ARGV[2]) then return 0 end
local s = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], s, ARGV[1])
return 1
`,
  4,
);

// KEYS: rows, seq, changes, valid. ARGV: new generation, seconds valid, then id, analysed at, ...
const REBUILD = luaScript(
  `
for i = 3, #ARGV, 2 do
  local cur = redis.call('HGET', KEYS[1], ARGV[i])
  if not cur or tonumber(cur) < tonumber(ARGV[i + 1]) then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
redis.call('DEL', KEYS[3])
redis.call('SET', KEYS[4], ARGV[1], 'EX', ARGV[2])
return 1
`,
  4,
);

/** An event's insight as stored after an analysis at `analysedAt` (or a later one already stored). */
export async function publishInsight(eventId: string, analysedAt: Date): Promise<void> {
  await PUBLISH(redis(), ...keys(), eventId, analysedAt.getTime());
}

class Invalid extends Error {}

interface Model {
  /** The rows key the model was read from: a process that moves to another database or prefix (a test file) starts afresh. */
  ns: string;
  gen: string;
  seq: string;
  /** event id -> analysed at (ms). */
  versions: Map<string, number>;
}

const kept = processMemo((): { model?: Model; bodies: Map<string, InsightDoc> } => ({ bodies: new Map() }));
let syncing: Promise<Model> | undefined;
let rebuilding: Promise<Model> | undefined;

function apply(versions: Map<string, number>, flat: string[]): void {
  for (let i = 0; i < flat.length; i += 2) {
    const at = Number(flat[i + 1]);
    if (flat[i + 1] && Number.isFinite(at)) versions.set(flat[i], at);
    else versions.delete(flat[i]);
  }
}

async function rebuild(): Promise<Model> {
  const gen = randomBytes(8).toString('hex');
  const args = (await findAllInsightsAnalysisTimestamp()).flatMap((i) => (i.analysisTimestamp ? [String(i._id), i.analysisTimestamp.getTime()] : []));
  await REBUILD(redis(), ...keys(), gen, REBUILD_EVERY_S, ...args);
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
  const versions = whole || !model ? new Map<string, number>() : model.versions;
  apply(versions, flat);
  memo.model = { ns, gen, seq, versions };
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

/** The entries (keyed by event id) whose event has an insight, in their order: the candidates of a page. */
export async function analysedEvents<T>(entries: readonly (readonly [string, T])[]): Promise<(readonly [string, T])[]> {
  const { versions } = await current();
  return entries.filter(([id]) => versions.has(id));
}

/**
 * The insights of `ids` (events the model says were analysed), those held at their published
 * analysis or later from memory, the others read by id. An id without a stored insight is left out.
 */
export async function insightsOf(ids: readonly string[]): Promise<Map<string, InsightDoc>> {
  const { versions } = await current();
  const { bodies } = kept();
  const fresh = (doc: InsightDoc | undefined, id: string) => doc !== undefined && (doc.analysisTimestamp?.getTime() ?? 0) >= (versions.get(id) ?? 0);
  const missing = ids.filter((id) => !fresh(bodies.get(id), id));
  if (missing.length) {
    for (const doc of await findInsightsByIds(missing)) {
      bodies.delete(doc._id);
      bodies.set(doc._id, doc);
    }
    // Least recently stored first: a Map iterates in insertion order.
    for (const id of bodies.keys()) {
      if (bodies.size <= BODIES_KEPT) break;
      bodies.delete(id);
    }
  }
  const out = new Map<string, InsightDoc>();
  for (const id of ids) {
    const doc = bodies.get(id);
    if (doc) out.set(id, doc);
  }
  return out;
}

/** Tests that write the store behind the read model's back: the model is dropped, and rebuilt by its next reader. */
export async function forgetInsights(): Promise<void> {
  await redis().del(...keys());
  kept().model = undefined;
  kept().bodies.clear();
}
