import { settleEvents, type EventOutcome } from './settleEvent';

type Waiter = { resolve: (o: EventOutcome) => void; reject: (e: unknown) => void };

/**
 * Groups the settle-event jobs a worker runs concurrently into one settlement pass: jobs stay one
 * per event (their ids, retries and backoff are per event), while the reads and conditional
 * writes of the events that arrive within `windowMs` go to the database as a few $in queries and
 * one bulkWrite per collection. A batch that fails rejects every job in it; each is retried.
 */
export class SettlementBatcher {
  private waiting = new Map<string, Waiter[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly run: (ids: readonly string[]) => Promise<Map<string, EventOutcome>> = (ids) => settleEvents(ids),
    private readonly windowMs = 5,
    private readonly maxBatch = 250,
  ) {}

  settle(eventId: string): Promise<EventOutcome> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(eventId) ?? [];
      list.push({ resolve, reject });
      this.waiting.set(eventId, list);
      if (this.waiting.size >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = new Map();
    if (batch.size === 0) return;
    this.run([...batch.keys()]).then(
      (outcomes) => {
        for (const [id, waiters] of batch) waiters.forEach((w) => w.resolve(outcomes.get(id)!));
      },
      (err) => {
        for (const waiters of batch.values()) waiters.forEach((w) => w.reject(err));
      },
    );
  }
}
