import { compareChangeIds, isChangeId, type ChangeEntry, type ChangeKind } from '../feed/changes';
import { betItemNames } from './names';

/**
 * What GET /v2/stream sends, as pure rules (docs/stream.md): which channel a change kind belongs
 * to, a connection's filters, the message a change becomes, how a slow reader's pending messages
 * are merged, and where a reconnecting client resumes.
 */

export const STREAM_CHANNELS = ['odds', 'scores', 'status', 'recommendations', 'settlements'] as const;
export type StreamChannel = (typeof STREAM_CHANNELS)[number];

/** The channel of each change kind: every kind has one. */
export const CHANNEL_OF_KIND = {
  price: 'odds',
  closing: 'odds',
  score: 'scores',
  lineups: 'scores',
  status: 'status',
  settled: 'settlements',
  result: 'settlements',
  recommendation: 'recommendations',
} as const satisfies Record<ChangeKind, StreamChannel>;

export const channelOf = (kind: ChangeKind): StreamChannel => CHANNEL_OF_KIND[kind];

/** What a connection asked for: channels (all when not given) and optional event filters. */
export interface StreamFilter {
  channels: ReadonlySet<StreamChannel>;
  sportId?: number;
  competitionId?: number;
  eventIds?: ReadonlySet<string>;
}

/** The sport and competition of an event (what filters read) and its teams' names (what messages carry). */
export interface EventMeta {
  sportId: number;
  competitionId: number;
  homeTeam: string;
  awayTeam: string;
}

/** Whether a filter by sport or competition needs the event's meta to decide. */
export const needsMeta = (f: StreamFilter): boolean => f.sportId !== undefined || f.competitionId !== undefined;

/** Whether an entry passes a connection's filter. An event whose meta is unknown fails a sport or competition filter. */
export function passes(f: StreamFilter, entry: ChangeEntry, meta: EventMeta | null | undefined): boolean {
  if (!f.channels.has(channelOf(entry.change.kind))) return false;
  if (f.eventIds && !f.eventIds.has(entry.change.eventId)) return false;
  if (!needsMeta(f)) return true;
  if (!meta) return false;
  if (f.sportId !== undefined && meta.sportId !== f.sportId) return false;
  if (f.competitionId !== undefined && meta.competitionId !== f.competitionId) return false;
  return true;
}

/** The JSON of a message's `data:` line. */
export interface MessageData {
  eventId: string;
  kind: ChangeKind;
  /** World time of the change, ISO. */
  at: string;
  provider: string | null;
  /** The event's teams (English names), so a reader needs no lookup to say which match changed; absent when the event is not stored. */
  event?: { homeTeam: string; awayTeam: string };
  data: unknown;
  /** Present (true) when several changes were merged into this message for a reader that stayed behind. */
  conflated?: true;
  /** On a merged message: how many entries it covers. */
  merged?: number;
  /** On a merged message: the first and last entry ids it covers (its `id:` is where a resume from it starts). */
  firstEntryId?: string;
  lastEntryId?: string;
  /** Present (true) on the test feed: the change is served a delay after it was stored (docs/stream.md). */
  delayed?: true;
}

/** One message of the stream: `id` is the change feed entry id (the last merged one when conflated). */
export interface StreamMessage {
  id: string;
  /** The oldest entry id merged into it (= id when not merged). */
  firstId: string;
  channel: StreamChannel;
  data: MessageData;
  /** Entries merged into it (1: none). */
  merged: number;
}

/** The message of an entry; `meta`, the event's when it is stored, names its teams. */
export function messageOf(entry: ChangeEntry, meta?: EventMeta): StreamMessage {
  const c = entry.change;
  const event = meta ? { event: { homeTeam: meta.homeTeam, awayTeam: meta.awayTeam } } : {};
  return {
    id: entry.id,
    firstId: entry.id,
    channel: channelOf(c.kind),
    data: { eventId: c.eventId, kind: c.kind, at: c.at.toISOString(), provider: c.provider ?? null, ...event, data: named(c.kind, c.eventId, c.data) },
    merged: 1,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A change's values with the catalog's names of the bet items they price: a price change's items
 * each, a recommendation its own (an id the catalog does not know is left as it is).
 */
function named(kind: ChangeKind, eventId: string, data: unknown): unknown {
  if (kind === 'recommendation' && isObject(data) && typeof data.betItemId === 'string') {
    const names = betItemNames(eventId, data.betItemId);
    return names ? { ...data, ...names } : data;
  }
  if (kind !== 'price' || !isObject(data) || !Array.isArray(data.items)) return data;
  return {
    ...data,
    items: data.items.map((it: unknown) => {
      const names = isObject(it) && typeof it.id === 'string' ? betItemNames(eventId, it.id) : null;
      return names && isObject(it) ? { ...it, ...names } : it;
    }),
  };
}

/** A recommendation's id as its change names it. */
function recommendationIdOf(data: unknown): string | undefined {
  return isObject(data) && typeof data.recommendationId === 'string' ? data.recommendationId : undefined;
}

/**
 * What a message is merged with: the same event, channel and kind; a recommendation is its own
 * (never merged with another). Price changes of one event merge item by item (below), so each
 * market keeps its latest prices.
 */
export function conflationKey(m: StreamMessage): string {
  const own = m.data.kind === 'recommendation' ? `|${recommendationIdOf(m.data.data) ?? m.id}` : '';
  return `${m.data.eventId}|${m.channel}|${m.data.kind}${own}`;
}

/** Items of a price change, by bet item id, in order. */
function priceItems(data: unknown): Map<string, unknown> | undefined {
  if (!isObject(data) || !Array.isArray(data.items)) return undefined;
  const out = new Map<string, unknown>();
  for (const it of data.items) {
    if (!isObject(it) || typeof it.id !== 'string') return undefined;
    out.set(it.id, it);
  }
  return out;
}

/**
 * `later` merged into `earlier` (same conflation key): the later change's values, its id and
 * time. A price change keeps the earlier change's items the later one does not name (each with
 * its latest price); any other kind is replaced whole by the later one.
 */
export function mergeMessages(earlier: StreamMessage, later: StreamMessage): StreamMessage {
  let data = later.data.data;
  if (later.data.kind === 'price') {
    const a = priceItems(earlier.data.data);
    const b = priceItems(later.data.data);
    if (a && b) {
      for (const [id, it] of b) {
        a.delete(id);
        a.set(id, it);
      }
      data = { ...(isObject(later.data.data) ? later.data.data : {}), items: [...a.values()] };
    }
  }
  const merged = earlier.merged + later.merged;
  return {
    id: later.id,
    firstId: earlier.firstId,
    channel: later.channel,
    data: { ...later.data, data, conflated: true, merged, firstEntryId: earlier.firstId, lastEntryId: later.id },
    merged,
  };
}

/**
 * A slow reader's pending messages, merged per conflation key, kept in the order of their last
 * entry id (a merged message moves to the end), bounded by the caller (`size`).
 */
export class PendingMessages {
  private readonly byKey = new Map<string, StreamMessage>();

  get size(): number {
    return this.byKey.size;
  }

  add(m: StreamMessage): void {
    const k = conflationKey(m);
    const earlier = this.byKey.get(k);
    if (earlier) this.byKey.delete(k);
    this.byKey.set(k, earlier ? mergeMessages(earlier, m) : m);
  }

  /** Everything pending, in order, each with the resume id it carries (`withIds`); empties the set. */
  drain(resumeFrom: string | null): { message: StreamMessage; id: string | null }[] {
    const out = withIds([...this.byKey.values()], resumeFrom);
    this.byKey.clear();
    return out;
  }
}

/**
 * The `id:` each message of a merged batch carries, so that every message has one and a resume
 * from it stays exact: a client resuming from an id must hold everything up to it. A message
 * whose entries all come before every later message's first entry carries its own last entry's
 * id; one that a later message overlaps (an entry before its id is merged into a later message)
 * carries the resume point before it: the previous message's, or `resumeFrom` (where the batch
 * starts) for the first. A resume from such an id re-sends the entries after it, including some
 * this message already merged (its `firstEntryId`..`lastEntryId` say which). The batch's last
 * message always carries its own id.
 */
export function withIds(batch: readonly StreamMessage[], resumeFrom: string | null): { message: StreamMessage; id: string | null }[] {
  const complete: boolean[] = new Array<boolean>(batch.length);
  let minFirstAfter: string | null = null;
  for (let i = batch.length - 1; i >= 0; i--) {
    const m = batch[i];
    complete[i] = minFirstAfter === null || compareChangeIds(minFirstAfter, m.id) > 0;
    if (minFirstAfter === null || compareChangeIds(m.firstId, minFirstAfter) < 0) minFirstAfter = m.firstId;
  }
  let safe = resumeFrom;
  return batch.map((message, i) => {
    if (complete[i]) safe = message.id;
    return { message, id: safe };
  });
}

/** Why a reconnecting client gets `snapshot_required` instead of its missed messages. */
export type SnapshotReason = 'outside_window' | 'unknown_id' | 'trimmed' | 'slow_consumer';

/** Where a connection starts: now (with the reason it could not resume, when it asked to), or right after an id. */
export type ResumeDecision = { from: 'now'; snapshot?: SnapshotReason } | { from: 'id'; afterId: string };

/** What the feed holds when a client resumes: its oldest and newest ids, whether the client's id is one of them, Redis's clock. */
export interface FeedState {
  oldestId: string | null;
  newestId: string | null;
  /** Whether an entry with the client's id is retained. */
  idRetained: boolean;
  nowMs: number;
}

/** Milliseconds part of an entry id: when Redis appended it. */
export const idTime = (id: string): number => Number(id.slice(0, id.indexOf('-')));

/**
 * Where a connection starts. No id: now. An id sent by this service within the window: right
 * after it. Otherwise `snapshot_required` and now: older than the window, newer than anything
 * the feed holds or not an id it holds (`unknown_id`: another deployment's, or made up), or
 * trimmed away (`trimmed`).
 */
export function resumeDecision(lastEventId: string | undefined, windowMs: number, feed: FeedState): ResumeDecision {
  if (lastEventId === undefined) return { from: 'now' };
  if (!isChangeId(lastEventId)) return { from: 'now', snapshot: 'unknown_id' };
  if (feed.nowMs - idTime(lastEventId) > windowMs) return { from: 'now', snapshot: 'outside_window' };
  if (feed.newestId === null || compareChangeIds(lastEventId, feed.newestId) > 0) return { from: 'now', snapshot: 'unknown_id' };
  if (feed.oldestId === null || compareChangeIds(lastEventId, feed.oldestId) < 0) return { from: 'now', snapshot: 'trimmed' };
  if (!feed.idRetained) return { from: 'now', snapshot: 'unknown_id' };
  return { from: 'id', afterId: lastEventId };
}

/** The SSE text of a message (`id:` omitted when null). */
export function sseMessage(event: string, data: unknown, id: string | null): string {
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** An SSE comment line: what a heartbeat is. */
export const sseComment = (text: string): string => `: ${text}\n\n`;
