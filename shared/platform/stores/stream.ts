import { readChanges, resumePoint } from '../feed/changeFeed';
import { eventMetaOf, keptEventMeta } from '../stream/eventMeta';
import { feedReader, type FeedSubscriber } from '../stream/feedReader';
import { refreshSlot, releaseSlot } from '../stream/slots';

/** An open stream's store (shared/app/stream/ports.ts): the change feed and the process's reader of it, the slots, the events' meta. */
export function streamStore() {
  return {
    readChanges,
    resumePoint,
    subscribe: (s: FeedSubscriber) => feedReader().subscribe(s),
    unsubscribe: (s: FeedSubscriber) => feedReader().unsubscribe(s),
    refreshSlot,
    releaseSlot,
    eventMetaOf,
    keptEventMeta,
  };
}
