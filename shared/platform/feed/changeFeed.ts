import { luaScript } from '../db/luaScript';
import { getConfig } from '../config';
import { execAll, key, redis, streamEntriesReply, tag } from '../db/redis';
import { childLogger } from '../logger';
import { compareChangeIds, decodeChange, encodeChange, isChangeId, type Change, type ChangeEntry } from '../../domain/feed/changes';

/**
 * The change feed: one bounded Redis stream of every change a writer applied, for clients that
 * follow changes instead of polling the REST state (docs/ingestion.md, "The change feed").
 *
 * Delivery is at least once, and never ahead of the store: a writer stages its batch under its
 * source's pending key before it writes the store, and publishes it after. A crash in between
 * leaves the batch staged, and the source's next publish or recovery appends it then, even when
 * the store write it announced never happened, so readers dedupe by (eventId, kind, at).
 */

export type { Change, ChangeEntry, ChangeKind } from '../../domain/feed/changes';
export { CHANGE_KINDS } from '../../domain/feed/changes';

// One hash tag: publishing moves a source's pending list into the stream in one script.
const streamKey = (): string => key(tag('feed'), 'changes');
const pendingKey = (source: string): string => key(tag('feed'), 'pending', source);

/** Strings one staged entry takes in the pending list: its field/value list for XADD. */
const ENTRY_WIDTH = 12;
/** Entries per RPUSH while staging: a poll's batch can be tens of thousands of changes. */
const STAGE_CHUNK = 1000;

/**
 * Appends every staged entry of a source, deletes the pending list and trims, as one script: a
 * MULTI would need the list read before it, and two publishers of one source (settlement's
 * concurrent jobs, a poll whose lock expired while it stalled) would both append what they read.
 * The cutoff is taken from Redis's clock because that clock made the entry ids it is compared with.
 * LIMIT 0 lifts the approximate trim's default cap (100 stream nodes' entries per call), which a
 * large poll's batch would exceed, leaving the stream to grow past both bounds.
 */
const PUBLISH = `
local items = redis.call('LRANGE', KEYS[2], 0, -1)
if #items == 0 then return 0 end
local width = tonumber(ARGV[3])
local appended = 0
for i = 1, #items - width + 1, width do
  local args = {KEYS[1], '*'}
  for j = i, i + width - 1 do args[#args + 1] = items[j] end
  redis.call('XADD', unpack(args))
  appended = appended + 1
end
redis.call('DEL', KEYS[2])
local now = redis.call('TIME')
local cutoff = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) - tonumber(ARGV[1])
redis.call('XTRIM', KEYS[1], 'MINID', '~', string.format('%d', cutoff), 'LIMIT', 0)
redis.call('XTRIM', KEYS[1], 'MAXLEN', '~', ARGV[2], 'LIMIT', 0)
return appended
`;
const runPublish = luaScript(PUBLISH, 2);

function requireName(what: string, value: string): void {
  if (typeof value !== 'string' || !value) throw new TypeError(`the change feed needs a ${what}`);
}

type RawEntry = [id: string, fields: string[]];

function decodeEntries(raw: RawEntry[]): ChangeEntry[] {
  const out: ChangeEntry[] = [];
  for (const [id, fields] of raw) {
    try {
      out.push({ id, ...decodeChange(fields) });
    } catch (err) {
      // One unreadable entry (a newer writer's kind) must not stop every reader at that id.
      childLogger({ module: 'changeFeed' }).warn({ id, err: err instanceof Error ? err.message : String(err) }, 'change feed entry skipped');
    }
  }
  return out;
}

/**
 * Stages a batch under the source's pending key: call it BEFORE writing the store. Every change is
 * encoded before anything is written, so an invalid one throws with nothing staged. Appends to
 * what is already staged (a crashed batch is kept, and published first). Returns the entries staged.
 */
export async function stageChanges(source: string, batchId: string, changes: readonly Change[]): Promise<number> {
  requireName('source', source);
  requireName('batch id', batchId);
  const encoded = changes.map((c) => encodeChange(c, batchId));
  if (!encoded.length) return 0;
  const multi = redis().multi();
  for (let i = 0; i < encoded.length; i += STAGE_CHUNK) multi.rpush(pendingKey(source), ...encoded.slice(i, i + STAGE_CHUNK).flat());
  await execAll(multi, 'change feed transaction');
  return encoded.length;
}

async function publish(source: string): Promise<number> {
  requireName('source', source);
  const cfg = getConfig();
  const appended = await runPublish(redis(), streamKey(), pendingKey(source), cfg.CHANGE_FEED_RETENTION_MS, cfg.CHANGE_FEED_MAXLEN, ENTRY_WIDTH);
  return Number(appended);
}

/**
 * Appends everything the source has staged to the feed, in staging order, and clears it: call it
 * AFTER the store writes. Staged entries are appended once whoever publishes them. Returns the
 * entries appended (0 when nothing was staged).
 */
export function publishStaged(source: string): Promise<number> {
  return publish(source);
}

/**
 * At the start of a source's poll: publishes what a crashed earlier poll of the source left
 * staged (its store writes may or may not have happened). Returns the entries appended.
 */
export async function recoverStaged(source: string): Promise<number> {
  const appended = await publish(source);
  if (appended) childLogger({ module: 'changeFeed', source }).warn({ entries: appended }, 'change feed: published a batch an earlier run left staged');
  return appended;
}

/**
 * Stage and publish at once, for a writer whose store writes are already done (settlement's
 * `settled`). Safe to call concurrently for one source: a concurrent call may append this batch
 * with its own, but it is in the feed, once, when this resolves. Returns this batch's size.
 */
export async function appendChanges(source: string, batchId: string, changes: readonly Change[]): Promise<number> {
  const staged = await stageChanges(source, batchId, changes);
  if (staged) await publish(source);
  return staged;
}

/**
 * Up to `count` entries after `afterId` (exclusive; null = from the oldest retained), oldest
 * first. `gap` says the reader's id is older than the oldest retained entry, or the stream is
 * gone: entries it never read may have been trimmed, so it must refetch the REST state. It errs on
 * the safe side (a reader whose last entry was trimmed but nothing after it is told of a gap too),
 * because a trim leaves no trace of what it removed.
 */
export async function readChanges(afterId: string | null, count: number): Promise<{ entries: ChangeEntry[]; gap: boolean }> {
  if (afterId !== null && !isChangeId(afterId)) throw new RangeError(`not a change feed id: "${afterId}"`);
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer (got ${count})`);
  const k = streamKey();
  // One transaction: a trim between the oldest-id check and the read would hide a gap.
  const [oldest, page] = (
    await execAll(
      redis()
        .multi()
        .xrange(k, '-', '+', 'COUNT', 1)
        .xrange(k, afterId === null ? '-' : `(${afterId}`, '+', 'COUNT', count),
      'change feed transaction',
    )
  ).map(streamEntriesReply);
  const oldestId = oldest[0]?.[0];
  const gap = afterId !== null && (oldestId === undefined || compareChangeIds(afterId, oldestId) < 0);
  return { entries: decodeEntries(page), gap };
}

/** Id of the oldest retained entry, null when the feed is empty. */
export async function oldestChangeId(): Promise<string | null> {
  const [first] = await redis().xrange(streamKey(), '-', '+', 'COUNT', 1);
  return first?.[0] ?? null;
}

/** What the feed holds now and its bounds: where a new reader starts (`newestId`) and how far back one can resume. */
export async function feedWindow(): Promise<{ oldestId: string | null; newestId: string | null; retentionMs: number; maxLen: number }> {
  const k = streamKey();
  const [oldest, newest] = (await execAll(redis().multi().xrange(k, '-', '+', 'COUNT', 1).xrevrange(k, '+', '-', 'COUNT', 1), 'change feed transaction')).map(streamEntriesReply);
  const cfg = getConfig();
  return { oldestId: oldest[0]?.[0] ?? null, newestId: newest[0]?.[0] ?? null, retentionMs: cfg.CHANGE_FEED_RETENTION_MS, maxLen: cfg.CHANGE_FEED_MAXLEN };
}

/**
 * What a stream's resume decision reads (shared/domain/stream/messages.ts), in one transaction: the
 * oldest and newest ids, whether an entry with `id` is retained, and Redis's clock (which made the ids).
 */
export async function resumePoint(id: string): Promise<{ oldestId: string | null; newestId: string | null; idRetained: boolean; nowMs: number }> {
  if (!isChangeId(id)) throw new RangeError(`not a change feed id: "${id}"`);
  const k = streamKey();
  const replies = await execAll(redis().multi().xrange(k, '-', '+', 'COUNT', 1).xrevrange(k, '+', '-', 'COUNT', 1).xrange(k, id, id).time(), 'change feed transaction');
  const [oldest, newest, own] = replies.slice(0, 3).map(streamEntriesReply);
  const time = replies[3];
  const nowMs = Array.isArray(time) && time.length === 2 ? Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000) : Date.now();
  return { oldestId: oldest[0]?.[0] ?? null, newestId: newest[0]?.[0] ?? null, idRetained: own.length > 0, nowMs };
}
