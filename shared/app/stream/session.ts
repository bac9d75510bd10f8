import { compareChangeIds, type ChangeEntry } from '../../domain/feed/changes';
import {
  idTime,
  messageOf,
  needsMeta,
  passes,
  PendingMessages,
  resumeDecision,
  sseComment,
  sseMessage,
  type SnapshotReason,
  type StreamFilter,
  type StreamMessage,
} from '../../domain/stream/messages';
import type { FeedSubscriber } from '../../platform/stream/feedReader';
import type { AppContext } from '../context';

/**
 * One open stream (GET /v2/stream and GET /v2/account/stream, docs/stream.md): where it starts
 * (resume decision), its backlog read from the change feed at the pace the socket drains, then the
 * process's live fan-out, filtered; its heartbeat, its slot, its metering periods; the test feed's
 * delay; and the merging of what a reader that stays behind the live feed has not read.
 *
 * Every entry after the start reaches the client as a message of its own, in order, each with its
 * own id, unless the reader stays behind past STREAM_SLOW_READER_MS: then what it has not read is
 * merged (each merged message says so, how many entries it covers and the resume id it is safe
 * to hold). A full socket never drops or merges anything by itself: the session stops taking the
 * live fan-out and reads the feed from where the socket stopped once it drains.
 */

/** What a stream writes to: the HTTP response, as far as the stream needs it. */
export interface SseSink {
  write(chunk: string): boolean;
  end(): void;
  readonly writableNeedDrain: boolean;
  readonly destroyed: boolean;
  once(event: 'drain' | 'close', listener: () => void): unknown;
}

/** Where a stream starts and what the resume decision found. */
export type StreamStart = { from: 'now'; snapshot?: SnapshotReason } | { from: 'id'; afterId: string };

/** Decides where a stream starts from the client's last id (read before the stream's headers go out). */
export async function startOf(ctx: AppContext, lastEventId: string | undefined): Promise<StreamStart> {
  if (lastEventId === undefined) return { from: 'now' };
  return resumeDecision(lastEventId, ctx.config.STREAM_RESUME_WINDOW_MS, await ctx.stream.resumePoint(lastEventId));
}

/** What a period's check decided: go on, or end the stream with this error (the error shape). */
export type PeriodVerdict = { ok: true } | { ok: false; body: Record<string, unknown> };

export interface SessionInput {
  connectionId: string;
  filter: StreamFilter;
  start: StreamStart;
  /** The slot's owner (a key id, or an account's session slot): released when the stream ends. */
  keyId: string;
  /**
   * What each further period checks and charges (the route decides: a live key's debit, a test
   * key's daily cap, a session that must still be signed in); null: nothing is checked.
   */
  period: ((n: number) => Promise<PeriodVerdict>) | null;
  /** The test feed: each entry is delivered this long after it was stored, marked `delayed`. 0: live. */
  delayMs: number;
}

const open = new Set<StreamSession>();

/** Ends every open stream of this process (web shutdown): clients reconnect with their last id. */
export function endAllStreams(): void {
  for (const s of [...open]) s.close();
}

/** Open streams in this process. */
export const openStreams = (): number => open.size;

/** Entries read from the feed at a time (a backlog, a catch-up after the socket drained). */
const PAGE = 500;
/**
 * Live entries a stream keeps in memory while its socket is full; past it the stream drops them
 * and reads the feed from where the socket stopped once it drains (the feed holds them all).
 */
const MAX_INBOX = 5000;
/** How often a delayed (test feed) stream looks for entries that came due. */
const DELAYED_POLL_MS = 1000;

/**
 * An entry's message and its SSE text (with its own id) are the same for every stream of the
 * process, so each is made once per entry the reader hands out, not once per stream: with 1,000
 * streams the per-stream JSON was most of a web process's delivery work (docs/stream.md,
 * "Measured"). Messages are never changed once made (a merge makes a new one).
 */
const messages = new WeakMap<ChangeEntry, StreamMessage>();
const texts = new WeakMap<StreamMessage, string>();
const delayedTexts = new WeakMap<StreamMessage, string>();
function messageOfEntry(ctx: AppContext, e: ChangeEntry): StreamMessage {
  let m = messages.get(e);
  if (m === undefined) {
    m = messageOf(e, ctx.stream.keptEventMeta(e.change.eventId));
    messages.set(e, m);
  }
  return m;
}
function textOf(m: StreamMessage, delayed: boolean): string {
  const cache = delayed ? delayedTexts : texts;
  let text = cache.get(m);
  if (text === undefined) {
    text = sseMessage(m.channel, delayed ? { ...m.data, delayed: true } : m.data, m.id);
    cache.set(m, text);
  }
  return text;
}

const after = (a: string, b: string | null): boolean => b === null || compareChangeIds(a, b) > 0;

export class StreamSession implements FeedSubscriber {
  /** Every entry up to this id was written or filtered out (the client's resume point, as far as it got). */
  private done: string | null = null;
  /** Every entry up to this id was examined: those that pass the filter are in `queue` or written. */
  private examined: string | null = null;
  /** Entries examined, passing the filter, not written yet (at most a page or a batch). */
  private queue: ChangeEntry[] = [];
  /** Where the next entries come from: the feed (a backlog, a catch-up, the test feed) or the process's reader. */
  private source: 'feed' | 'live' = 'feed';
  /** The last id the process's reader handed to this stream (the live feed's head, as far as it knows). */
  private heard: string | null = null;
  /** Live batches not examined yet (source live). */
  private inbox: (readonly ChangeEntry[])[] = [];
  private inboxSize = 0;
  /** Since when (wall ms) the reader has been behind: its socket filled and it has not caught up since. */
  private behindSince: number | null = null;
  /** The start was made up from a time (the test feed from now): a feed that begins after it is no gap. */
  private syntheticStart = false;
  private started = false;
  private running = false;
  private rerun = false;
  private waitingDrain = false;
  private delayTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private wroteSinceBeat = false;
  private period = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  private finish: () => void = () => undefined;
  readonly ended = new Promise<void>((resolve) => {
    this.finish = resolve;
  });

  constructor(
    private readonly ctx: AppContext,
    private readonly sink: SseSink,
    private readonly input: SessionInput,
  ) {}

  /** Runs the stream until it ends (client gone, shutdown, a refused period, a reader too far behind). */
  async run(): Promise<void> {
    open.add(this);
    this.sink.once('close', () => this.close());
    const cfg = this.ctx.config;
    try {
      const position = await this.ctx.stream.subscribe(this);
      if (this.closed) return;
      if (this.heard === null || (position !== null && after(position, this.heard))) this.heard = position;
      this.sink.write('retry: 2000\n\n');
      const { start } = this.input;
      if (start.from === 'now' && start.snapshot) this.snapshot(start.snapshot);
      if (start.from === 'id') this.done = start.afterId;
      else if (this.input.delayMs > 0) {
        // The test feed from now: what was stored a delay ago is what comes due next.
        this.done = `${Math.max(0, Date.now() - this.input.delayMs)}-0`;
        this.syntheticStart = true;
      } else this.done = position;
      this.examined = this.done;
      this.source = 'feed';
    } catch (err) {
      this.fail(err, 'stream failed');
      return;
    }
    this.timers.push(setInterval(() => this.beat(), cfg.STREAM_HEARTBEAT_MS));
    if (this.input.period) this.timers.push(setInterval(() => void this.meter(), cfg.STREAM_BILLING_INTERVAL_MS));
    this.started = true;
    this.wake();
    await this.ended;
  }

  /** From the process's reader: kept to write while the stream is live; otherwise the feed is read instead. */
  entries(batch: readonly ChangeEntry[]): void {
    if (this.closed || !batch.length) return;
    const last = batch[batch.length - 1].id;
    if (after(last, this.heard)) this.heard = last;
    if (this.source !== 'live' || this.input.delayMs > 0) {
      // Reading the feed: it catches up with what the reader heard by itself. A delayed stream has its own timer.
      if (this.input.delayMs === 0) this.wake();
      return;
    }
    this.inbox.push(batch);
    this.inboxSize += batch.length;
    if (this.inboxSize > MAX_INBOX) {
      // Too much held for a full socket: the feed has it all; read it from where this stream stopped.
      this.inbox = [];
      this.inboxSize = 0;
      this.source = 'feed';
    }
    this.wake();
  }

  /** The reader lost its place: the feed no longer holds what this stream was to read next. */
  lost(): void {
    if (this.closed) return;
    this.inbox = [];
    this.inboxSize = 0;
    this.source = 'feed';
    this.wake();
  }

  private wake(): void {
    if (!this.started || this.closed) return;
    if (this.running) {
      // A socket's drain comes on the next tick, before the running loop's promise settles: run again after it.
      this.rerun = true;
      return;
    }
    this.running = true;
    this.pump()
      .catch((err: unknown) => this.fail(err, 'stream delivery failed'))
      .finally(() => {
        this.running = false;
        if (this.rerun) {
          this.rerun = false;
          this.wake();
        }
      });
  }

  /**
   * The one loop that writes: the socket's room, the reader's lag, the queue, the feed or the live
   * batches, in that order. One at a time per stream, so entries go out in id order.
   */
  private async pump(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      if (this.sink.writableNeedDrain) {
        this.behindSince ??= Date.now();
        this.awaitDrain();
        return;
      }
      if (this.behindSince !== null && Date.now() - this.behindSince > this.ctx.config.STREAM_SLOW_READER_MS) {
        await this.mergeBehind();
        continue;
      }
      if (this.queue.length) {
        this.writeQueue();
        continue;
      }
      if (this.source === 'feed') {
        if (await this.readPage()) continue;
        if (this.isLive()) this.behindSince = null;
        return;
      }
      const batch = this.inbox.shift();
      if (!batch) {
        // Caught up with the live feed and nothing left to write.
        this.behindSince = null;
        return;
      }
      this.inboxSize -= batch.length;
      // A batch is in id order: when its first entry is new, all are (one comparison, not one per entry).
      await this.examine(after(batch[0].id, this.examined) ? batch : batch.filter((e) => after(e.id, this.examined)));
    }
  }

  /** Read through a method: TypeScript narrows a field across the awaits that change it. */
  private isLive(): boolean {
    return this.source === 'live';
  }

  private awaitDrain(): void {
    if (this.waitingDrain) return;
    this.waitingDrain = true;
    this.sink.once('drain', () => {
      this.waitingDrain = false;
      this.wake();
    });
  }

  private writeQueue(): void {
    const delayed = this.input.delayMs > 0;
    let i = 0;
    while (i < this.queue.length && !this.sink.writableNeedDrain) {
      const e = this.queue[i++];
      this.write(textOf(messageOfEntry(this.ctx, e), delayed));
      this.done = e.id;
    }
    this.queue = i === this.queue.length ? [] : this.queue.slice(i);
    if (!this.queue.length) this.done = this.examined;
  }

  /** Examines entries (in order, after `examined`): those that pass the filter are queued. */
  private async examine(entries: readonly ChangeEntry[]): Promise<void> {
    if (!entries.length) return;
    const { filter } = this.input;
    if (needsMeta(filter)) {
      const metas = await this.ctx.stream.eventMetaOf(entries.filter((e) => !filter.eventIds || filter.eventIds.has(e.change.eventId)).map((e) => e.change.eventId));
      for (const e of entries) if (passes(filter, e, metas.get(e.change.eventId))) this.queue.push(e);
    } else {
      const passing = entries.filter((e) => passes(filter, e, undefined));
      // The teams' names the messages carry, kept per process and read once per event. Names are
      // an aid, not the change: when MongoDB is slow or away the messages go out without them.
      await this.ctx.stream.eventMetaOf(
        passing.map((e) => e.change.eventId),
        { namesOnly: true },
      );
      for (const e of passing) this.queue.push(e);
    }
    this.examined = entries[entries.length - 1].id;
    if (!this.queue.length) this.done = this.examined;
  }

  /**
   * Reads the next page of the feed after `examined`. Returns whether there is more to do now;
   * false when caught up (a live stream then takes the reader's batches; a delayed one waits for
   * the next entry to come due).
   */
  private async readPage(): Promise<boolean> {
    const { entries, gap } = await this.ctx.stream.readChanges(this.examined, PAGE);
    if (this.closed) return false;
    if (gap) {
      if (this.syntheticStart) {
        // The test feed's start was a time before the feed's oldest entry: everything is after it.
        this.syntheticStart = false;
        this.done = this.examined = null;
        return true;
      }
      // The feed was trimmed past this stream: say so, then go on from what it still holds.
      this.snapshot('trimmed');
      this.done = this.examined = null;
      return true;
    }
    this.syntheticStart = false;
    const delayMs = this.input.delayMs;
    const due = delayMs > 0 ? entries.filter((e) => idTime(e.id) <= Date.now() - delayMs) : entries;
    await this.examine(due);
    if (delayMs > 0) {
      if (due.length === PAGE) return true;
      this.behindSince = null;
      this.scheduleDelayed();
      return false;
    }
    if (entries.length === PAGE) return true;
    // Caught up with the feed as far as the reader has heard: from here on, the reader's batches.
    if (this.heard === null || (this.examined !== null && compareChangeIds(this.examined, this.heard) >= 0)) {
      this.source = 'live';
      this.inbox = [];
      this.inboxSize = 0;
      return this.queue.length > 0;
    }
    return true;
  }

  private scheduleDelayed(): void {
    if (this.delayTimer || this.closed) return;
    this.delayTimer = setTimeout(() => {
      this.delayTimer = null;
      this.wake();
    }, DELAYED_POLL_MS);
  }

  /**
   * The reader stayed behind past STREAM_SLOW_READER_MS: what it has not read, up to the feed's
   * head, is merged per event, channel and kind and written at once; every merged message says so
   * and carries the id a resume from it is exact from. Past STREAM_MAX_PENDING merged messages the
   * stream ends with snapshot_required (slow_consumer).
   */
  private async mergeBehind(): Promise<void> {
    const cfg = this.ctx.config;
    const pending = new PendingMessages();
    const from = this.done;
    for (const e of this.queue) pending.add(messageOfEntry(this.ctx, e));
    this.queue = [];
    if (this.source === 'live') {
      const inbox = this.inbox;
      this.inbox = [];
      this.inboxSize = 0;
      for (const batch of inbox) {
        await this.examine(batch.filter((e) => after(e.id, this.examined)));
        for (const e of this.queue) pending.add(messageOfEntry(this.ctx, e));
        this.queue = [];
      }
    }
    this.source = 'feed';
    const delayMs = this.input.delayMs;
    for (;;) {
      if (pending.size > cfg.STREAM_MAX_PENDING) {
        this.snapshot('slow_consumer');
        this.close();
        return;
      }
      if (delayMs === 0 && this.heard !== null && this.examined !== null && compareChangeIds(this.examined, this.heard) >= 0) break;
      const { entries, gap } = await this.ctx.stream.readChanges(this.examined, PAGE);
      if (this.closed) return;
      if (gap) break;
      const due = delayMs > 0 ? entries.filter((e) => idTime(e.id) <= Date.now() - delayMs) : entries;
      await this.examine(due);
      for (const e of this.queue) pending.add(messageOfEntry(this.ctx, e));
      this.queue = [];
      if (due.length < PAGE) break;
    }
    const delayed = this.input.delayMs > 0;
    for (const { message, id } of pending.drain(from)) {
      this.write(sseMessage(message.channel, delayed ? { ...message.data, delayed: true } : message.data, id));
    }
    this.done = this.examined;
    // Still behind until it catches up; the clock starts again from here.
    this.behindSince = Date.now();
  }

  private snapshot(reason: SnapshotReason): void {
    this.write(sseMessage('snapshot_required', { reason, resumeWindowSeconds: this.ctx.config.STREAM_RESUME_WINDOW_MS / 1000 }, null));
  }

  private write(text: string): void {
    if (this.closed || this.sink.destroyed) return;
    this.wroteSinceBeat = true;
    this.sink.write(text);
  }

  private beat(): void {
    if (this.closed) return;
    const cfg = this.ctx.config;
    // The slot lives three heartbeats: a process that dies frees its streams' slots soon after.
    this.ctx.stream.refreshSlot(this.input.keyId, this.input.connectionId, cfg.STREAM_HEARTBEAT_MS * 3).catch(() => undefined);
    if (!this.wroteSinceBeat && !this.sink.writableNeedDrain) this.sink.write(sseComment('heartbeat'));
    this.wroteSinceBeat = false;
  }

  private async meter(): Promise<void> {
    const check = this.input.period;
    if (!check || this.closed) return;
    this.period++;
    try {
      const r = await check(this.period);
      if (r.ok || this.closed) return;
      // The error goes out at once, ahead of anything the socket still holds back.
      this.write(sseMessage('error', r.body, null));
      this.close();
    } catch (err) {
      // Redis or MongoDB unreachable: the period is not charged, and the stream goes on.
      this.ctx.log({ component: 'stream' }).warn({ err: err instanceof Error ? err.message : String(err) }, 'stream period check failed');
    }
  }

  private fail(err: unknown, msg: string): void {
    this.ctx.log({ component: 'stream' }).error({ err: err instanceof Error ? err.message : String(err) }, msg);
    this.close();
  }

  /** Ends the stream (idempotent): the socket closes, the slot and the subscription go. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    open.delete(this);
    for (const t of this.timers) clearInterval(t);
    if (this.delayTimer) clearTimeout(this.delayTimer);
    this.ctx.stream.unsubscribe(this);
    this.ctx.stream.releaseSlot(this.input.keyId, this.input.connectionId).catch(() => undefined);
    if (!this.sink.destroyed) this.sink.end();
    this.finish();
  }
}
