import { getConfig } from '../config';
import { feedWindow, readChanges, type ChangeEntry } from '../feed/changeFeed';
import { childLogger } from '../logger';

/**
 * The one reader of the change feed in a web process: it reads new entries every STREAM_POLL_MS
 * and hands each batch, in id order, to every subscriber (the process's open streams). It runs
 * while anyone subscribes. Entry ids are Redis's, the same in every process, so a client may
 * resume on another process from the id it last got here.
 */

export interface FeedSubscriber {
  /** New entries, oldest first, each once. */
  entries(batch: readonly ChangeEntry[]): void;
  /** The reader lost its place (the feed was trimmed past it, or Redis flushed): what was missed is unknown. */
  lost(): void;
}

const PAGE = 1000;
const log = () => childLogger({ module: 'streamReader' });

class FeedReader {
  private readonly subscribers = new Set<FeedSubscriber>();
  private position: string | null = null;
  private running: Promise<void> | null = null;
  private started: Promise<void> | null = null;
  private stopped = false;

  /**
   * Adds a subscriber; resolves once the reader holds a position, with that position: the
   * subscriber hears every entry after it (null: the feed was empty, every entry).
   */
  async subscribe(s: FeedSubscriber): Promise<string | null> {
    this.subscribers.add(s);
    this.stopped = false;
    this.started ??= this.start();
    await this.started;
    return this.position;
  }

  unsubscribe(s: FeedSubscriber): void {
    this.subscribers.delete(s);
  }

  get size(): number {
    return this.subscribers.size;
  }

  private async start(): Promise<void> {
    try {
      this.position = (await feedWindow()).newestId;
    } catch (err) {
      this.started = null;
      throw err;
    }
    this.running = this.loop();
  }

  private async loop(): Promise<void> {
    const pollMs = getConfig().STREAM_POLL_MS;
    while (!this.stopped && this.subscribers.size > 0) {
      let more = false;
      try {
        const { entries, gap } = await readChanges(this.position, PAGE);
        if (gap) {
          log().warn({ position: this.position }, 'stream reader: the change feed no longer holds its position; streams told to take a snapshot');
          this.position = (await feedWindow()).newestId;
          for (const s of [...this.subscribers]) s.lost();
          continue;
        }
        if (entries.length) {
          this.position = entries[entries.length - 1].id;
          for (const s of [...this.subscribers]) s.entries(entries);
        }
        more = entries.length === PAGE;
      } catch (err) {
        log().error({ err: err instanceof Error ? err.message : String(err) }, 'stream reader: reading the change feed failed');
      }
      if (!more) await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    // Nobody listens: the next subscriber starts again from the feed's newest entry.
    this.started = null;
    this.running = null;
  }

  /** Stops reading (shutdown); resolves when the loop has returned. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}

let reader: FeedReader | undefined;

/** This process's reader. */
export function feedReader(): FeedReader {
  reader ??= new FeedReader();
  return reader;
}
