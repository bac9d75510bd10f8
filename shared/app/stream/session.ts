import { compareChangeIds, type ChangeEntry } from '../../domain/feed/changes';
import {
  messageOf,
  needsMeta,
  passes,
  PendingMessages,
  resumeDecision,
  sseComment,
  sseMessage,
  type EventMeta,
  type SnapshotReason,
  type StreamFilter,
  type StreamMessage,
} from '../../domain/stream/messages';
import { getConfig } from '../../platform/config';
import { readChanges, resumePoint } from '../../platform/feed/changeFeed';
import { feedReader, type FeedSubscriber } from '../../platform/stream/feedReader';
import { refreshSlot, releaseSlot } from '../../platform/stream/slots';
import type { AppContext } from '../context';
import { eventMetaOf } from './eventMeta';
import { chargePeriod, type PeriodInput } from './metering';

/**
 * One open stream (GET /v2/stream, docs/stream.md): where it starts (resume decision), its backlog
 * read from the change feed, then the process's live fan-out, filtered; its heartbeat, its slot,
 * its metering periods; and a slow reader's merged pending messages.
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
export async function startOf(lastEventId: string | undefined): Promise<StreamStart> {
  if (lastEventId === undefined) return { from: 'now' };
  return resumeDecision(lastEventId, getConfig().STREAM_RESUME_WINDOW_MS, await resumePoint(lastEventId));
}

/** An error message's body and how the stream ends after it. */
export interface StreamError {
  body: Record<string, unknown>;
}

export interface SessionInput {
  connectionId: string;
  filter: StreamFilter;
  start: StreamStart;
  /** The key's slot (released when the stream ends). */
  keyId: string;
  /** The metering of each period after the open; null: not metered (never for a metered key). */
  metering: Omit<PeriodInput, 'ref'> | null;
  /** The error shapes of a refused period (built by the route, which owns the error table). */
  errors: { insufficient: (balance: number) => Record<string, unknown>; revoked: () => Record<string, unknown> };
}

const open = new Set<StreamSession>();

/** Ends every open stream of this process (web shutdown): clients reconnect with their last id. */
export function endAllStreams(): void {
  for (const s of [...open]) s.close();
}

/** Open streams in this process. */
export const openStreams = (): number => open.size;

const PAGE = 1000;

/**
 * An entry's message and its SSE text (with its own id) are the same for every stream of the
 * process, so each is made once per entry the reader hands out, not once per stream: with 1,000
 * streams the per-stream JSON was most of a web process's delivery work (docs/stream.md,
 * "Measured"). Messages are never changed once made (a merge makes a new one).
 */
const messages = new WeakMap<ChangeEntry, StreamMessage>();
const texts = new WeakMap<StreamMessage, string>();
function messageOfEntry(e: ChangeEntry): StreamMessage {
  let m = messages.get(e);
  if (m === undefined) {
    m = messageOf(e);
    messages.set(e, m);
  }
  return m;
}
function textOf(m: StreamMessage): string {
  let text = texts.get(m);
  if (text === undefined) {
    text = sseMessage(m.channel, m.data, m.id);
    texts.set(m, text);
  }
  return text;
}

export class StreamSession implements FeedSubscriber {
  private lastSent: string | null = null;
  /** Live entries heard while the backlog is read. */
  private buffered: ChangeEntry[] | null = [];
  private readonly pending = new PendingMessages();
  private blocked = false;
  private closed = false;
  private wroteSinceBeat = false;
  private period = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  private chain: Promise<void> = Promise.resolve();
  private done: () => void = () => undefined;
  readonly ended = new Promise<void>((resolve) => {
    this.done = resolve;
  });

  constructor(
    private readonly ctx: AppContext,
    private readonly sink: SseSink,
    private readonly input: SessionInput,
  ) {}

  /** Runs the stream until it ends (client gone, shutdown, a refused period, a slow reader). */
  async run(): Promise<void> {
    open.add(this);
    this.sink.once('close', () => this.close());
    const cfg = getConfig();
    try {
      const position = await feedReader().subscribe(this);
      if (this.closed) return;
      this.sink.write('retry: 2000\n\n');
      const { start } = this.input;
      if (start.from === 'now' && start.snapshot) this.send('snapshot_required', { reason: start.snapshot, resumeWindowSeconds: cfg.STREAM_RESUME_WINDOW_MS / 1000 }, null);
      // The backlog: from the client's id (a resume) or from the reader's position when it
      // subscribed (nothing, unless entries came in between), then what the reader heard meanwhile.
      let after = start.from === 'id' ? start.afterId : position;
      if (start.from === 'id' || after !== null) {
        for (;;) {
          const { entries, gap } = await readChanges(after, PAGE);
          if (this.closed) return;
          if (gap) {
            this.lost();
            break;
          }
          await this.deliver(entries);
          if (entries.length < PAGE) break;
          after = entries[entries.length - 1].id;
        }
      }
      // Heard while the backlog was read, then live, one batch after the other.
      const heard = this.buffered ?? [];
      this.buffered = null;
      this.chain = this.chain.then(() => this.deliver(heard));
      await this.chain;
    } catch (err) {
      this.ctx.log({ component: 'stream' }).error({ err: err instanceof Error ? err.message : String(err) }, 'stream failed');
      this.close();
    }
    if (!this.closed) {
      this.timers.push(setInterval(() => this.beat(), cfg.STREAM_HEARTBEAT_MS));
      if (this.input.metering) this.timers.push(setInterval(() => void this.meter(), cfg.STREAM_BILLING_INTERVAL_MS));
    }
    await this.ended;
  }

  /** From the process's reader: queued behind the backlog while it is read. */
  entries(batch: readonly ChangeEntry[]): void {
    if (this.closed) return;
    if (this.buffered) {
      this.buffered.push(...batch);
      return;
    }
    this.chain = this.chain
      .then(() => this.deliver(batch))
      .catch((err: unknown) => {
        this.ctx.log({ component: 'stream' }).error({ err: err instanceof Error ? err.message : String(err) }, 'stream delivery failed');
        this.close();
      });
  }

  /** The reader lost its place: this stream cannot say what it missed. */
  lost(): void {
    if (this.closed) return;
    this.send('snapshot_required', { reason: 'trimmed' satisfies SnapshotReason, resumeWindowSeconds: getConfig().STREAM_RESUME_WINDOW_MS / 1000 }, null);
  }

  private async deliver(batch: readonly ChangeEntry[]): Promise<void> {
    // A batch is in id order: when its first entry is new, all are (one comparison, not one per entry).
    const last = this.lastSent;
    const fresh = last === null || (batch.length > 0 && compareChangeIds(batch[0].id, last) > 0) ? batch : batch.filter((e) => compareChangeIds(e.id, last) > 0);
    if (!fresh.length || this.closed) return;
    this.lastSent = fresh[fresh.length - 1].id;
    const { filter } = this.input;
    let metas = new Map<string, EventMeta>();
    if (needsMeta(filter)) metas = await eventMetaOf(fresh.filter((e) => !filter.eventIds || filter.eventIds.has(e.change.eventId)).map((e) => e.change.eventId));
    for (const e of fresh) if (passes(filter, e, metas.get(e.change.eventId))) this.offer(e);
  }

  /** An entry to send now, or to merge with the pending messages while the socket is full. */
  private offer(e: ChangeEntry): void {
    if (this.closed) return;
    if (!this.blocked) {
      this.blocked = !this.write(textOf(messageOfEntry(e)));
      if (this.blocked) this.sink.once('drain', () => this.flush());
      return;
    }
    this.pending.add(messageOfEntry(e));
    if (this.pending.size > getConfig().STREAM_MAX_PENDING) {
      this.send('snapshot_required', { reason: 'slow_consumer' satisfies SnapshotReason, resumeWindowSeconds: getConfig().STREAM_RESUME_WINDOW_MS / 1000 }, null);
      this.close();
    }
  }

  private flush(): void {
    if (this.closed) return;
    this.blocked = false;
    for (const { message, id } of this.pending.drain()) {
      if (!this.write(id === message.id ? textOf(message) : sseMessage(message.channel, message.data, id))) this.blocked = true;
    }
    if (this.blocked) this.sink.once('drain', () => this.flush());
  }

  /** Writes one message; false when the socket's buffer is full. */
  private send(event: string, data: unknown, id: string | null): boolean {
    return this.write(sseMessage(event, data, id));
  }

  private write(text: string): boolean {
    if (this.closed || this.sink.destroyed) return false;
    this.wroteSinceBeat = true;
    return this.sink.write(text);
  }

  private beat(): void {
    if (this.closed) return;
    const cfg = getConfig();
    // The slot lives three heartbeats: a process that dies frees its streams' slots soon after.
    refreshSlot(this.input.keyId, this.input.connectionId, cfg.STREAM_HEARTBEAT_MS * 3).catch(() => undefined);
    if (!this.wroteSinceBeat && !this.blocked) this.sink.write(sseComment('heartbeat'));
    this.wroteSinceBeat = false;
  }

  private async meter(): Promise<void> {
    const m = this.input.metering;
    if (!m || this.closed) return;
    this.period++;
    try {
      const r = await chargePeriod(this.ctx, { ...m, ref: `${this.input.connectionId}.${this.period}` });
      if (r.ok || this.closed) return;
      this.send('error', r.reason === 'revoked' ? this.input.errors.revoked() : this.input.errors.insufficient(r.balance), null);
      this.close();
    } catch (err) {
      // Redis or MongoDB unreachable: the period is not charged, and the stream goes on.
      this.ctx.log({ component: 'stream' }).warn({ err: err instanceof Error ? err.message : String(err) }, 'stream metering period failed');
    }
  }

  /** Ends the stream (idempotent): the socket closes, the slot and the subscription go. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    open.delete(this);
    for (const t of this.timers) clearInterval(t);
    feedReader().unsubscribe(this);
    releaseSlot(this.input.keyId, this.input.connectionId).catch(() => undefined);
    if (!this.sink.destroyed) this.sink.end();
    this.done();
  }
}
