import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { StreamSession, startOf, type SseSink } from '../../../shared/app/stream/session';
import type { ChangeEntry } from '../../../shared/domain/feed/changes';
import { fakeContext, type FakeContext } from './fakeContext';

/** An open stream on an in-memory context: where it starts, its backlog then the live feed in order, each entry once, its slot. */

const T0 = Date.parse('2026-11-21T11:59:00Z');

function entry(seq: number, eventId: string, kind: ChangeEntry['change']['kind'] = 'price'): ChangeEntry {
  return { id: `${T0 + seq * 1000}-0`, poll: `p${seq}`, change: { eventId, kind, at: new Date(T0 + seq * 1000), data: { n: seq } } };
}

/** A response as the stream writes to it: the chunks, and a close the test can make. */
class Sink extends EventEmitter implements SseSink {
  chunks: string[] = [];
  writableNeedDrain = false;
  destroyed = false;
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  end(): void {
    this.destroyed = true;
  }
  /** The ids of the messages written, in order. */
  ids(): string[] {
    return this.chunks.flatMap((c) => /^id: (\S+)/.exec(c)?.[1] ?? []);
  }
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(check(), 'the stream did not get there').to.equal(true);
}

function open(ctx: FakeContext, sink: Sink, start: Awaited<ReturnType<typeof startOf>>, eventIds?: string[]): { done: Promise<void> } {
  const session = new StreamSession(ctx, sink, {
    connectionId: 'c1',
    filter: { channels: new Set(['odds', 'scores', 'status', 'recommendations', 'settlements']), eventIds: eventIds && new Set(eventIds) },
    start,
    keyId: 'key-1',
    period: null,
    delayMs: 0,
  });
  return { done: session.run() };
}

describe('stream orchestrator (in-memory context)', () => {
  it('happy: a resume writes the backlog after its id, then the live feed, each entry once and in order; its slot is released at the end', async () => {
    const ctx = fakeContext(new Date(T0 + 60_000));
    ctx.stream.feed.push(entry(1, 'e1'), entry(2, 'e2'), entry(3, 'e1'));
    const start = await startOf(ctx, entry(1, 'e1').id);
    expect(start).to.deep.equal({ from: 'id', afterId: entry(1, 'e1').id });
    ctx.stream.slots.set('key-1', new Set(['c1']));
    const sink = new Sink();
    const { done } = open(ctx, sink, start);
    await until(() => sink.ids().length === 2);
    ctx.stream.append([entry(4, 'e2'), entry(5, 'e1', 'score')]);
    await until(() => sink.ids().length === 4);
    expect(sink.ids()).to.deep.equal([2, 3, 4, 5].map((n) => entry(n, 'x').id));
    expect(sink.chunks[0]).to.equal('retry: 2000\n\n');
    sink.emit('close');
    await done;
    expect(ctx.stream.subscribers.size).to.equal(0);
    expect([...(ctx.stream.slots.get('key-1') ?? [])]).to.deep.equal([]);
  });

  it("happy: a filter by event writes only that event's entries; a stream from now writes only what comes after it", async () => {
    const ctx = fakeContext(new Date(T0 + 60_000));
    ctx.stream.feed.push(entry(1, 'e1'), entry(2, 'e2'));
    const sink = new Sink();
    const { done } = open(ctx, sink, await startOf(ctx, undefined), ['e2']);
    await until(() => ctx.stream.subscribers.size === 1);
    ctx.stream.append([entry(3, 'e1'), entry(4, 'e2')]);
    await until(() => sink.ids().length === 1);
    expect(sink.ids()).to.deep.equal([entry(4, 'e2').id]);
    sink.emit('close');
    await done;
  });

  it('error: a resume id the feed no longer holds, one outside the window, or a malformed one asks for a snapshot instead', async () => {
    const ctx = fakeContext(new Date(T0), { STREAM_RESUME_WINDOW_MS: '600000' });
    ctx.stream.feed.push(entry(1000, 'e1'), entry(1100, 'e1'));
    ctx.stream.nowMs = T0 + 1_200_000;
    expect(await startOf(ctx, entry(1000, 'e1').id)).to.deep.equal({ from: 'id', afterId: entry(1000, 'e1').id });
    expect(await startOf(ctx, entry(1050, 'e1').id)).to.deep.equal({ from: 'now', snapshot: 'unknown_id' });
    expect(await startOf(ctx, entry(10, 'e1').id)).to.deep.equal({ from: 'now', snapshot: 'outside_window' });
    expect(await startOf(ctx, 'not-an-id')).to.deep.equal({ from: 'now', snapshot: 'unknown_id' });
    ctx.stream.feed.shift();
    expect(await startOf(ctx, entry(1000, 'e1').id)).to.deep.equal({ from: 'now', snapshot: 'trimmed' });
  });
});
