import type { ChangeEntry } from '../../domain/feed/changes';
import type { EventMeta } from '../../domain/stream/messages';
import type { FeedSubscriber } from '../../platform/stream/feedReader';

/**
 * What an open stream reads and holds: the change feed (pages of it, where a resume id stands),
 * the process's live fan-out of it, the key's connection slot, and the sport, competition and
 * teams of the events it filters and names by. The process binds it to Redis and MongoDB
 * (shared/platform/stores/stream.ts).
 */
export interface StreamStore {
  /** Up to `limit` entries after `afterId` (null: from the oldest kept); `gap` when entries after it were trimmed away. */
  readChanges(afterId: string | null, limit: number): Promise<{ entries: ChangeEntry[]; gap: boolean }>;
  /** Where the feed stands for a resume from `lastEventId`: its oldest and newest ids, whether that id is kept, and the store's clock. */
  resumePoint(lastEventId: string): Promise<{ oldestId: string | null; newestId: string | null; idRetained: boolean; nowMs: number }>;
  /** Joins the process's live fan-out; resolves with the feed's position when joined. */
  subscribe(subscriber: FeedSubscriber): Promise<string | null>;
  unsubscribe(subscriber: FeedSubscriber): void;
  /** Keeps the connection's slot among its key's open streams for `ttlMs` more. */
  refreshSlot(keyId: string, connectionId: string, ttlMs: number): Promise<void>;
  releaseSlot(keyId: string, connectionId: string): Promise<void>;
  /** The meta of each stored event of `eventIds` (`namesOnly`: to name messages, within a short wait, never failing). */
  eventMetaOf(eventIds: Iterable<string>, opts?: { namesOnly?: boolean }): Promise<Map<string, EventMeta>>;
  /** The meta kept for an event, if any (what eventMetaOf last read). */
  keptEventMeta(eventId: string): EventMeta | undefined;
}
