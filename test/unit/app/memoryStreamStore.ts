import type { StreamStore } from '../../../shared/app/stream/ports';
import { compareChangeIds, type ChangeEntry } from '../../../shared/domain/feed/changes';
import type { EventMeta } from '../../../shared/domain/stream/messages';
import type { FeedSubscriber } from '../../../shared/platform/stream/feedReader';

/**
 * An open stream's store in memory (shared/app/stream/ports.ts): the change feed as an ordered
 * list (trimmed from the front: a page after a trimmed id is a gap), a fan-out that hands each
 * appended batch to its subscribers, the slots held, and the events' meta.
 */
export class MemoryStreamStore implements StreamStore {
  feed: ChangeEntry[] = [];
  /** Ids trimmed from the front of the feed (a read after one of them is a gap). */
  trimmedBefore: string | null = null;
  subscribers = new Set<FeedSubscriber>();
  slots = new Map<string, Set<string>>();
  metas = new Map<string, EventMeta>();
  nowMs = Date.parse('2026-11-21T12:00:00Z');

  /** Appends entries to the feed and hands them to the live subscribers, as the process's reader does. */
  append(entries: ChangeEntry[]): void {
    this.feed.push(...entries);
    for (const s of this.subscribers) s.entries(entries);
  }
  async readChanges(afterId: string | null, limit: number) {
    const gap = afterId !== null && this.trimmedBefore !== null && compareChangeIds(afterId, this.trimmedBefore) < 0;
    const entries = this.feed.filter((e) => afterId === null || compareChangeIds(e.id, afterId) > 0).slice(0, limit);
    return { entries, gap };
  }
  async resumePoint(lastEventId: string) {
    return {
      oldestId: this.feed[0]?.id ?? null,
      newestId: this.feed.at(-1)?.id ?? null,
      idRetained: this.feed.some((e) => e.id === lastEventId),
      nowMs: this.nowMs,
    };
  }
  async subscribe(s: FeedSubscriber) {
    this.subscribers.add(s);
    return this.feed.at(-1)?.id ?? null;
  }
  unsubscribe(s: FeedSubscriber) {
    this.subscribers.delete(s);
  }
  async refreshSlot(keyId: string, connectionId: string) {
    this.slots.set(keyId, new Set([...(this.slots.get(keyId) ?? []), connectionId]));
  }
  async releaseSlot(keyId: string, connectionId: string) {
    this.slots.get(keyId)?.delete(connectionId);
  }
  async eventMetaOf(eventIds: Iterable<string>) {
    return new Map([...new Set(eventIds)].flatMap((id) => (this.metas.has(id) ? [[id, this.metas.get(id)] as [string, EventMeta]] : [])));
  }
  keptEventMeta(eventId: string) {
    return this.metas.get(eventId);
  }
}
