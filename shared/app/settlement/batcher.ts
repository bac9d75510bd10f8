import type { EventOutcome } from './settleEvent';

type Waiter = { resolve: (o: EventOutcome) => void; reject: (e: unknown) => void };

/**
 * Groups the settle-event jobs a worker runs concurrently into one settlement pass: jobs stay one
 * per event (their ids, retries and backoff are per event), while the reads and conditional
 * writes of the events that arrive within `windowMs` go to the database as a few $in queries and
 * one bulkWrite per collection. A batch that fails rejects every job in it; each is retried.
 *
 * Group commit: at most `maxInFlight` batches run at once; jobs arriving meanwhile wait and go
 * together in the next batch. Without that limit, each job a finished batch frees starts a batch
 * of its own 5 ms later, and the worker degenerates into dozens of one-event passes running side
 * by side, each re-reading the collections and refreshing the rollups (seen with bench:settlement:
 * after the first batch of 64, every pass held one event).
 */
export class SettlementBatcher {
  private waiting = new Map<string, Waiter[]>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;

  constructor(
    private readonly run: (ids: readonly string[]) => Promise<Map<string, EventOutcome>>,
    private readonly windowMs = 5,
    private readonly maxBatch = 250,
    private readonly maxInFlight = 1,
  ) {}

  settle(eventId: string): Promise<EventOutcome> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(eventId) ?? [];
      list.push({ resolve, reject });
      this.waiting.set(eventId, list);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.waiting.size === 0 || this.inFlight >= this.maxInFlight) return;
    if (this.waiting.size >= this.maxBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting.size === 0 || this.inFlight >= this.maxInFlight) return;
    const batch = new Map<string, Waiter[]>();
    for (const [id, waiters] of this.waiting) {
      if (batch.size >= this.maxBatch) break;
      batch.set(id, waiters);
    }
    for (const id of batch.keys()) this.waiting.delete(id);
    this.inFlight++;
    this.run([...batch.keys()])
      .then(
        (outcomes) => {
          for (const [id, waiters] of batch) {
            const outcome = outcomes.get(id);
            // The run answers every id it was given; one left out fails its jobs (retried) rather than answering nothing.
            waiters.forEach((w) => (outcome ? w.resolve(outcome) : w.reject(new Error(`settlement gave no outcome for ${id}`))));
          }
        },
        (err) => {
          for (const waiters of batch.values()) waiters.forEach((w) => w.reject(err));
        },
      )
      .finally(() => {
        this.inFlight--;
        this.schedule();
      });
  }
}
