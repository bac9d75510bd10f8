import { bumpedInThisProcess, cacheVersionAtKey, cacheVersionChannel, cacheVersionKey } from '../cache/versions';
import { getConfig } from '../config';
import { luaScript } from '../db/luaScript';
import { isRecord } from '../../domain/records';
import { execAll, hashReply, key, redis, stringReply, tag } from '../db/redis';
import { findListingFieldsOfAllEvents } from '../db/repositories/events';
import { listingFieldsOf, listingRowOf, marketCountOf, sortedListing, type Listing, type ListingRow } from '../../domain/listing/rows';
import { bodyFieldsOf } from '../../domain/listing/bodies';
import { processMemo } from '../processScope';

/**
 * The listing in Redis: a hash of compact rows (`listing:<db>:rows`, event id -> JSON row) and the
 * `events` cache version it is complete at (`listing:<db>:valid`). The ingest poll, the one writer
 * of the listing fields, writes the rows of the events it wrote and bumps the `events` version in
 * one script, keeping the listing valid. Any other writer of events (a correction, a test's
 * fixtures) only bumps the version, which leaves the listing invalid: the next reader rebuilds it
 * from the store, and the rebuild lands only if no write came in between. Web processes keep the
 * parsed listing in memory per version, so a list page costs a filter over a few thousand rows.
 */

// Under the cache versions' hash tag (cacheVersionKey): the scripts bump the `events` version with the rows.
const rowsKey = () => key(tag('cache'), 'listing', getConfig().MONGODB_DB, 'rows');
const validKey = () => key(tag('cache'), 'listing', getConfig().MONGODB_DB, 'valid');
const updatedKey = () => key(tag('cache'), 'listing', getConfig().MONGODB_DB, 'updated');
const rebuildsKey = () => key(tag('cache'), 'listing', getConfig().MONGODB_DB, 'rebuilds');
const bodyPrefix = () => `${key(tag('cache'), 'listing', getConfig().MONGODB_DB, 'body')}:`;
/** A body nobody wrote for a day (an event long ended) is read from the store again when asked for. */
const BODY_TTL_S = 24 * 3600;

// KEYS: rows, events version, valid, updated, events version-at. ARGV: now (ms), the bodies' key
// prefix, their time to live (s), the versions' channel (cacheVersionChannel), then per event: id, partial row JSON, '1' when the event is
// inserted, how many body fields, those fields (name, JSON, ...). Returns the new version. Every
// event named gets the new version as its `v` (what it serves changed). Its body follows: merged
// only into the body of the row's previous version (a whole one; anything else is left behind,
// not made whole by a partial write), or started over by an insert.
const RECORD = luaScript(
  `
local new = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[4], ARGV[1])
redis.call('SET', KEYS[5], new .. ' ' .. ARGV[1])
redis.call('PUBLISH', ARGV[4], 'events ' .. new)
local i = 5
while i <= #ARGV do
  local id, n = ARGV[i], tonumber(ARGV[i + 3])
  local cur = redis.call('HGET', KEYS[1], id)
  local row = cur and cjson.decode(cur) or {}
  local was = row['v']
  for k, v in pairs(cjson.decode(ARGV[i + 1])) do row[k] = v end
  row['v'] = new
  redis.call('HSET', KEYS[1], id, cjson.encode(row))
  local body = ARGV[2] .. id
  local whole = ARGV[i + 2] == '1'
  if whole then
    redis.call('DEL', body)
  elseif was ~= nil then
    whole = redis.call('HGET', body, 'v') == tostring(was)
  end
  if whole then
    for j = i + 4, i + 3 + 2 * n, 2 do redis.call('HSET', body, ARGV[j], ARGV[j + 1]) end
    redis.call('HSET', body, 'v', new)
    redis.call('EXPIRE', body, ARGV[3])
  end
  i = i + 4 + 2 * n
end
if tonumber(redis.call('GET', KEYS[3]) or '-1') == new - 1 then redis.call('SET', KEYS[3], new, 'KEEPTTL') end
return new
`,
  5,
);

// KEYS: rows, body. ARGV: id, the row's `v` the body was read at, time to live (s), the body's
// fields (name, JSON, ...). A body read from the store is kept only while its row is still at
// that version: a write landed since is newer than it, and its own step carries the body on.
const KEEP_BODY = luaScript(
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur or tostring(cjson.decode(cur)['v']) ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[2])
for j = 4, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[j], ARGV[j + 1]) end
redis.call('HSET', KEYS[2], 'v', ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1
`,
  2,
);

// KEYS: rows, events version, valid, updated. ARGV: the version the rows were read at, seconds the
// rebuild holds, the latest event update (ms), then id, row JSON, ... A row's market count, which
// the store's events do not hold, is kept from the row it replaces.
const REBUILD = luaScript(
  `
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[1] then return 0 end
local counts = {}
local old = redis.call('HGETALL', KEYS[1])
for i = 1, #old, 2 do
  local m = cjson.decode(old[i + 1])['m']
  if m then counts[old[i]] = m end
end
redis.call('DEL', KEYS[1])
for i = 4, #ARGV, 2 do
  local m = counts[ARGV[i]]
  if m then
    local row = cjson.decode(ARGV[i + 1])
    row['m'] = m
    redis.call('HSET', KEYS[1], ARGV[i], cjson.encode(row))
  else
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
redis.call('SET', KEYS[3], ARGV[1], 'EX', ARGV[2])
if tonumber(ARGV[3]) > tonumber(redis.call('GET', KEYS[4]) or '0') then redis.call('SET', KEYS[4], ARGV[3]) end
return 1
`,
  4,
);

/**
 * A rebuilt listing is trusted for this long, however the ingest keeps it since (its writes keep
 * the expiry): a row a failed poll left stale is corrected from the store within it.
 */
const REBUILD_EVERY_S = 600;

/** The listing is rebuilt from the store by its next reader (an ingest worker starting: its state was read back from the store). */
export async function invalidateListing(): Promise<void> {
  await redis().del(validKey());
}

type Write = { id: string; insert?: boolean; set: Record<string, unknown> };

/**
 * After the ingest wrote events (their documents, prices, live data): their listing fields, bodies
 * and change version into the rows, the time of the write, and the `events` version bumped (the
 * page cache's invalidation), in one step.
 */
export async function publishEventWrites(writes: { events: readonly Write[]; prices: readonly Write[]; liveData: readonly Write[] }, now = Date.now()): Promise<void> {
  const touched = new Map<string, { row: Partial<ListingRow>; insert: boolean; body: string[] }>();
  const of = (id: string) => touched.get(id) ?? touched.set(id, { row: {}, insert: false, body: [] }).get(id)!;
  for (const w of writes.events) {
    const t = of(w.id);
    Object.assign(t.row, listingFieldsOf(w.set));
    if (w.insert) t.insert = true;
    t.body.push(...bodyFieldsOf('e', w.set));
  }
  for (const w of writes.prices) {
    const t = of(w.id);
    Object.assign(t.row, marketCountOf(w.set));
    t.body.push(...bodyFieldsOf('p', w.set));
  }
  for (const w of writes.liveData) of(w.id).body.push(...bodyFieldsOf('l', w.set));
  // In steps of a bounded size: a first poll names every event with its whole body (about 40
  // arguments each), which as one script would hold Redis for the whole world at once. Each
  // event is in one step, with its row, body and version together.
  let args: (string | number)[] = [];
  const record = async () => {
    if (args.length === 0) return;
    const step = args;
    args = [];
    const version = await RECORD(redis(), rowsKey(), cacheVersionKey('events'), validKey(), updatedKey(), cacheVersionAtKey('events'), now, bodyPrefix(), BODY_TTL_S, cacheVersionChannel(), step);
    bumpedInThisProcess('events', String(version));
  };
  try {
    for (const [id, t] of touched) {
      args.push(id, JSON.stringify(t.row), t.insert ? '1' : '0', t.body.length / 2);
      for (const field of t.body) args.push(field);
      if (args.length >= RECORD_STEP_ARGS) await record();
    }
    await record();
  } catch (err) {
    // The store holds these writes and a retried poll finds nothing to write again: the next
    // reader rebuilds the listing from the store instead (when Redis answers that much).
    await invalidateListing().catch(() => undefined);
    throw err;
  }
}

/** Arguments of one step of publishEventWrites: about 250 whole events, a few milliseconds of Redis. */
const RECORD_STEP_ARGS = 10_000;

/** The stored bodies of these events (a hash each, empty when there is none), in the order given. */
export async function readBodies(ids: readonly string[]): Promise<Record<string, string>[]> {
  return Promise.all(ids.map(async (id) => hashReply(await redis().hgetall(bodyPrefix() + id))));
}

/** Keeps a body read from the store for the readers after, if its row is still at `v` (else a newer write carries it). */
export async function keepBody(id: string, v: number, fields: readonly string[]): Promise<boolean> {
  return (await KEEP_BODY(redis(), rowsKey(), bodyPrefix() + id, id, String(v), BODY_TTL_S, fields)) === 1;
}

/** When the ingest last wrote anything an event serves (null before any write this Redis knows of). */
export async function lastEventWriteAt(): Promise<Date | null> {
  const ms = await redis().get(updatedKey());
  return ms ? new Date(Number(ms)) : null;
}

// Keyed by the rows key too: a version number means nothing in another database or prefix (a test file's).
// The last listing read, in the process scope (shared/platform/processScope.ts).
const kept = processMemo((): { snapshot?: { ns: string; version: string; listing: Listing } } => ({}));
let rebuilding: Promise<Listing> | undefined;

const optionalNumber = (v: unknown): v is number | undefined => v === undefined || typeof v === 'number';

/** A stored row when it is complete (a row only partly written, before its event's insert, is not). */
function completeRow(json: string): ListingRow | null {
  const r: unknown = JSON.parse(json);
  if (!isRecord(r)) return null;
  const { s, c, r: region, st, t, p, m, v } = r;
  if (typeof t !== 'number' || typeof st !== 'string' || typeof s !== 'number' || typeof c !== 'number' || typeof region !== 'number' || typeof p !== 'number') return null;
  if (!optionalNumber(m) || !optionalNumber(v)) return null;
  return { s, c, r: region, st, t, p, ...(m === undefined ? {} : { m }), ...(v === undefined ? {} : { v }) };
}

function parse(rows: Record<string, string>): Listing {
  const out: [string, ListingRow][] = [];
  for (const [id, json] of Object.entries(rows)) {
    const row = completeRow(json);
    if (row) out.push([id, row]);
  }
  return sortedListing(out);
}

async function rebuild(): Promise<Listing> {
  const version = (await redis().get(cacheVersionKey('events'))) ?? '0';
  const rows: [string, ListingRow][] = [];
  // A `v` of this rebuild's own, which no body holds (theirs are versions, positive): every body
  // is read from the store again, so one a failed poll left stale is corrected with its row.
  const v = -(await redis().incr(rebuildsKey()));
  let updated = 0;
  for await (const e of findListingFieldsOfAllEvents()) {
    rows.push([String(e._id), { ...listingRowOf(e), v }]);
    updated = Math.max(updated, e.updatedAt?.getTime() ?? 0);
  }
  const args = rows.flatMap(([id, row]) => [id, JSON.stringify(row)]);
  // Landed only when no write came in between; the rows read serve this reader either way.
  if ((await REBUILD(redis(), rowsKey(), cacheVersionKey('events'), validKey(), updatedKey(), version, REBUILD_EVERY_S, updated, args)) === 1) {
    const listing = versioned(sortedListing(rows), version);
    kept().snapshot = { ns: rowsKey(), version, listing };
    return listing;
  }
  return versioned(sortedListing(rows), version);
}

const versions = new WeakMap<Listing, number>();
const versioned = (listing: Listing, version: string): Listing => (versions.set(listing, Number(version)), listing);

/** The `events` version a snapshot is complete at: a body written at a later version is newer than it. */
export function listingVersion(listing: Listing): number {
  return versions.get(listing) ?? 0;
}

/** The listing as of now: from memory while the `events` version holds, else from Redis, else rebuilt. */
export async function currentListing(): Promise<Listing> {
  const [version, valid] = await redis().mget(cacheVersionKey('events'), validKey());
  const v = version ?? '0';
  const { snapshot } = kept();
  if (snapshot && snapshot.ns === rowsKey() && snapshot.version === v && valid === v) return snapshot.listing;
  if (valid === v) {
    const [v2, valid2, rows] = await execAll(redis().multi().get(cacheVersionKey('events')).get(validKey()).hgetall(rowsKey()), 'listing read');
    const validNow = stringReply(valid2);
    if ((stringReply(v2) ?? '0') === validNow) {
      const listing = versioned(parse(hashReply(rows)), validNow);
      kept().snapshot = { ns: rowsKey(), version: validNow, listing };
      return listing;
    }
  }
  rebuilding ??= rebuild().finally(() => (rebuilding = undefined));
  return rebuilding;
}
