import type { operations } from './schema.js';
import { SseParser, type SseEvent } from './sse.js';

/**
 * GET /v2/stream followed by its resume contract (the operation's description in
 * /v2/openapi.json): every message's id is remembered; a dropped or ended connection reconnects
 * after a backoff with `Last-Event-ID`, and the server sends exactly the messages missed, in
 * order, within its resume window; past it the first message is `snapshot_required` (handed to
 * the caller, who fetches the REST state and keeps reading); an `error` message (no credits
 * left, a revoked key) or a refusal of the request ends the iteration; heartbeat comments keep
 * an idle connection alive; `close()` or the AbortSignal ends it.
 */

/** The stream's filters, as the OpenAPI document types them. */
export type StreamQuery = Omit<NonNullable<operations['stream']['parameters']['query']>, 'lastEventId'>;
export type StreamChannel = NonNullable<StreamQuery['channels']>[number];

/** The change kinds each channel carries. */
export const CHANNEL_KINDS = {
  odds: ['price', 'closing'],
  scores: ['score', 'lineups'],
  status: ['status'],
  recommendations: ['recommendation'],
  settlements: ['settled', 'result'],
} as const satisfies Record<StreamChannel, readonly string[]>;

export type ChangeKindOf<C extends StreamChannel> = (typeof CHANNEL_KINDS)[C][number];

/** A message of a channel: one stored change (or, for a reader that stayed behind, several merged: `conflated`). */
export interface ChannelMessage<C extends StreamChannel> {
  type: 'change';
  /** The message's id: a resume from it is exact (the server sends one on every message). */
  id: string | null;
  channel: C;
  eventId: string;
  kind: ChangeKindOf<C>;
  /** World time of the change, ISO. */
  at: string;
  provider: string | null;
  /** The event's teams (English names); null when the event is not stored. */
  event: { homeTeam: string; awayTeam: string } | null;
  /** The change's new values, as docs/ingestion.md ("The change feed") describes them per kind; a price change's items also carry `marketCaption` and `caption` (the catalog's names). */
  data: unknown;
  /** Several entries merged (the reader stayed behind the live feed): `merged` of them, from `firstEntryId` to `lastEntryId`. */
  conflated: boolean;
  merged: number;
  firstEntryId: string | null;
  lastEntryId: string | null;
  /** The test feed (a test key): the change is delivered a delay after it was stored. */
  delayed: boolean;
}

/** A message of any channel, narrowed by `channel` (and `kind`). */
export type ChangeMessage = { [C in StreamChannel]: ChannelMessage<C> }[StreamChannel];

export type SnapshotReason = 'outside_window' | 'unknown_id' | 'trimmed' | 'slow_consumer';

/** The stream cannot tell what was missed: fetch the REST state, then keep reading. */
export interface SnapshotRequired {
  type: 'snapshot_required';
  /** A SnapshotReason (a newer server may name others). */
  reason: string;
  resumeWindowSeconds: number;
}

/** The API's error shape, as the stream or its refused request carries it. */
export interface StreamErrorBody {
  statusCode: number;
  message: string;
  error: string;
  /** One of the Error schema's codes (insufficient_credits, invalid_api_key, too_many_streams, ...). */
  code: string;
  requestId?: string;
  [field: string]: unknown;
}

/** The stream ended for good (iteration stops after it): an `error` message, or a refused request. */
export interface StreamEnded {
  type: 'error';
  /** The HTTP status of a refused request; 200 when the open stream sent an `error` message. */
  status: number;
  error: StreamErrorBody;
}

export type StreamItem = ChangeMessage | SnapshotRequired | StreamEnded;

export interface StreamOptions extends StreamQuery {
  /** Start after this message id (a resume), e.g. the `lastEventId` of an earlier stream. */
  lastEventId?: string;
  signal?: AbortSignal;
  /** The first reconnect's delay (ms); default the stream's `retry:` (2 s). Doubled per failed attempt. */
  retryMs?: number;
  /** The longest delay between attempts (ms, default 30 s). */
  maxRetryMs?: number;
  /** A connection silent this long (no message, no heartbeat) is dropped and resumed (default 45 s: three heartbeats). */
  idleTimeoutMs?: number;
  /** Called at each connection attempt with the id it resumes after (undefined: from now). */
  onConnect?: (info: { attempt: number; lastEventId: string | undefined }) => void;
}

/** What stream() returns: the items, the id a later stream may resume from, and a way to stop. */
export interface EventStream extends AsyncIterable<StreamItem> {
  /** The id of the last message received that carried one. */
  readonly lastEventId: string | undefined;
  /** Ends the stream: the iteration finishes, the connection closes. */
  close(): void;
}

export interface StreamTransport {
  baseUrl: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pick = <K extends string>(value: unknown, choices: readonly K[]): K | undefined => choices.find((k) => k === value);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const teamsOf = (v: unknown): { homeTeam: string; awayTeam: string } | null =>
  isRecord(v) && typeof v.homeTeam === 'string' && typeof v.awayTeam === 'string' ? { homeTeam: v.homeTeam, awayTeam: v.awayTeam } : null;

/** A channel's message, checked field by field; undefined for anything this client does not know. */
export function changeMessageOf(event: string, id: string | null, data: unknown): ChangeMessage | undefined {
  if (!isRecord(data) || typeof data.eventId !== 'string' || typeof data.at !== 'string') return undefined;
  const base = {
    type: 'change' as const,
    id,
    eventId: data.eventId,
    at: data.at,
    provider: typeof data.provider === 'string' ? data.provider : null,
    event: teamsOf(data.event),
    data: data.data,
    conflated: data.conflated === true,
    merged: typeof data.merged === 'number' ? data.merged : 1,
    firstEntryId: typeof data.firstEntryId === 'string' ? data.firstEntryId : null,
    lastEntryId: typeof data.lastEntryId === 'string' ? data.lastEntryId : null,
    delayed: data.delayed === true,
  };
  switch (event) {
    case 'odds': {
      const kind = pick(data.kind, CHANNEL_KINDS.odds);
      return kind && { ...base, channel: 'odds', kind };
    }
    case 'scores': {
      const kind = pick(data.kind, CHANNEL_KINDS.scores);
      return kind && { ...base, channel: 'scores', kind };
    }
    case 'status': {
      const kind = pick(data.kind, CHANNEL_KINDS.status);
      return kind && { ...base, channel: 'status', kind };
    }
    case 'recommendations': {
      const kind = pick(data.kind, CHANNEL_KINDS.recommendations);
      return kind && { ...base, channel: 'recommendations', kind };
    }
    case 'settlements': {
      const kind = pick(data.kind, CHANNEL_KINDS.settlements);
      return kind && { ...base, channel: 'settlements', kind };
    }
    default:
      return undefined;
  }
}

/** The error shape, checked; a body that is not one is described as what it is. */
export function errorBodyOf(status: number, body: unknown): StreamErrorBody {
  if (isRecord(body) && typeof body.statusCode === 'number' && typeof body.message === 'string' && typeof body.error === 'string' && typeof body.code === 'string') {
    return { ...body, statusCode: body.statusCode, message: body.message, error: body.error, code: body.code };
  }
  return { statusCode: status, message: typeof body === 'string' ? body : `HTTP ${status}`, error: 'Unexpected response', code: 'unexpected_response' };
}

/** The item an SSE event is, if this client knows it. */
function itemOf(e: SseEvent): StreamItem | undefined {
  const data = parseJson(e.data);
  if (e.event === 'snapshot_required') {
    if (!isRecord(data) || typeof data.reason !== 'string') return undefined;
    return { type: 'snapshot_required', reason: data.reason, resumeWindowSeconds: typeof data.resumeWindowSeconds === 'number' ? data.resumeWindowSeconds : 0 };
  }
  if (e.event === 'error') return { type: 'error', status: 200, error: errorBodyOf(200, data) };
  return changeMessageOf(e.event, e.id, data);
}

/** Waits `ms`, or less if the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function streamUrl(baseUrl: string, query: StreamQuery): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/v2/stream`);
  if (query.channels) url.searchParams.set('channels', query.channels.join(','));
  if (query.sport) url.searchParams.set('sport', query.sport);
  if (query.competitionId) url.searchParams.set('competitionId', query.competitionId);
  if (query.eventIds) url.searchParams.set('eventIds', query.eventIds.join(','));
  return url.toString();
}

/** Statuses worth another attempt: rate limits (including too_many_streams) and the server's own failures. */
const retriable = (status: number) => status === 429 || status >= 500;

export function openStream(transport: StreamTransport, options: StreamOptions = {}): EventStream {
  const { lastEventId: from, signal, retryMs, maxRetryMs = 30_000, idleTimeoutMs = 45_000, onConnect, channels, sport, competitionId, eventIds } = options;
  const stop = new AbortController();
  if (signal) {
    if (signal.aborted) stop.abort();
    else signal.addEventListener('abort', () => stop.abort(), { once: true });
  }
  const url = streamUrl(transport.baseUrl, { channels, sport, competitionId, eventIds });
  let lastEventId = from;
  let serverRetry = 2000;
  const delay = (failures: number) => Math.min(maxRetryMs, (retryMs ?? serverRetry) * 2 ** Math.min(failures, 10));

  async function* items(): AsyncGenerator<StreamItem> {
    let failures = 0;
    for (let attempt = 0; !stop.signal.aborted; attempt++) {
      onConnect?.({ attempt, lastEventId });
      const connection = new AbortController();
      const abort = () => connection.abort();
      stop.signal.addEventListener('abort', abort, { once: true });
      let wait: number | undefined;
      try {
        const headers: Record<string, string> = { ...transport.headers, Accept: 'text/event-stream' };
        if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
        const res = await transport.fetch(url, { headers, signal: connection.signal });
        if (res.status !== 200 || !res.body) {
          const text = await res.text();
          if (!retriable(res.status)) {
            yield { type: 'error', status: res.status, error: errorBodyOf(res.status, parseJson(text) ?? text) };
            return;
          }
          const after = Number(res.headers.get('retry-after'));
          if (Number.isFinite(after) && after > 0) wait = after * 1000;
          failures++;
        } else {
          failures = 0;
          const parser = new SseParser();
          const decoder = new TextDecoder();
          const reader = res.body.getReader();
          for (;;) {
            // Only the wait for the network counts as silence, not the time the caller takes.
            const idle = setTimeout(abort, idleTimeoutMs);
            const chunk = await reader.read().finally(() => clearTimeout(idle));
            if (chunk.done) break;
            const bytes: unknown = chunk.value;
            if (!(bytes instanceof Uint8Array)) continue;
            const out = parser.push(decoder.decode(bytes, { stream: true }));
            if (out.retry !== undefined) serverRetry = out.retry;
            for (const e of out.events) {
              const item = itemOf(e);
              if (e.id !== null) lastEventId = e.id;
              if (!item) continue;
              yield item;
              if (item.type === 'error') return;
            }
          }
        }
      } catch {
        // A dropped connection (or close()): resumed below unless stopped.
        failures++;
      } finally {
        stop.signal.removeEventListener('abort', abort);
        connection.abort();
      }
      if (stop.signal.aborted) return;
      // A connection that ended cleanly was counted as no failure: the first retry waits the base delay.
      await sleep(wait ?? delay(Math.max(0, failures - 1)), stop.signal);
    }
  }

  return {
    get lastEventId() {
      return lastEventId;
    },
    close: () => stop.abort(),
    [Symbol.asyncIterator]: () => items(),
  };
}
