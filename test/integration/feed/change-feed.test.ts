import { expect } from 'chai';
import { getConfig, setEnvForChildren } from '../../../shared/platform/config';
import { key, redis, tag } from '../../../shared/platform/db/redis';
import {
  appendChanges,
  feedWindow,
  oldestChangeId,
  publishStaged,
  readChanges,
  recoverStaged,
  stageChanges,
  type Change,
  type ChangeEntry,
  type ChangeKind,
} from '../../../shared/platform/feed/changeFeed';
import { encodeChange } from '../../../shared/domain/feed/changes';

/**
 * On the real Redis, under this file's own prefix (test/setup.ts gives each integration file one).
 * The feed's keys are cleared before each test; the bounds are lowered through the config.
 */

const STREAM = () => key(tag('feed'), 'changes');
const PENDING = (source: string) => key(tag('feed'), 'pending', source);
const KICKOFF = Date.UTC(2026, 10, 26, 15, 0, 0);

/** `n` distinct changes, the i-th of event 7100000+from+i. */
function batch(n: number, from = 0, kind: ChangeKind = 'price'): Change[] {
  return Array.from({ length: n }, (_, i) => ({
    eventId: String(7100000 + from + i),
    kind,
    at: new Date(KICKOFF + (from + i) * 1000),
    data: { price: 1.5 + (from + i) / 100, suspended: false },
    provider: 'simulated',
  }));
}

async function readAll(): Promise<ChangeEntry[]> {
  const out: ChangeEntry[] = [];
  let after: string | null = null;
  for (;;) {
    const { entries } = await readChanges(after, 500);
    if (!entries.length) return out;
    out.push(...entries);
    after = entries[entries.length - 1].id;
  }
}

const withMaxLen = (maxLen: number) => setEnvForChildren({ CHANGE_FEED_MAXLEN: String(maxLen) });

describe('change feed (Redis stream feed:changes)', () => {
  beforeEach(async () => {
    await redis().del(STREAM(), PENDING('simulated'), PENDING('settlement'));
  });

  afterEach(() => {
    // Empty = the default again.
    setEnvForChildren({ CHANGE_FEED_MAXLEN: '' });
  });

  it('happy: entries come back in append order with their values, a page at a time after an id', async () => {
    const first = batch(3);
    const second = [...batch(2, 10, 'status'), { eventId: '7100001', kind: 'lineups' as const, at: new Date(KICKOFF - 3600_000), data: { home: ['A. Keeper'] } }];
    expect(await appendChanges('simulated', 'poll-1', first)).to.equal(3);
    expect(await appendChanges('simulated', 'poll-2', second)).to.equal(3);

    const all = await readAll();
    expect(all.map((e) => e.change)).to.deep.equal([...first, ...second]);
    expect(all.map((e) => e.poll)).to.deep.equal(['poll-1', 'poll-1', 'poll-1', 'poll-2', 'poll-2', 'poll-2']);
    expect(all[5].change).to.not.have.property('provider');

    const page = await readChanges(all[1].id, 2);
    expect(page).to.deep.equal({ entries: all.slice(2, 4), gap: false });
    expect(await readChanges(all[5].id, 10)).to.deep.equal({ entries: [], gap: false });
    expect(await feedWindow()).to.deep.equal({ oldestId: all[0].id, newestId: all[5].id, retentionMs: 3600000, maxLen: 200000 });
  });

  it('happy: a staged batch is invisible until published, then published exactly once', async () => {
    expect(await stageChanges('simulated', 'poll-1', batch(4))).to.equal(4);
    expect(await readChanges(null, 10)).to.deep.equal({ entries: [], gap: false });

    expect(await publishStaged('simulated')).to.equal(4);
    expect(await publishStaged('simulated')).to.equal(0);
    expect(await recoverStaged('simulated')).to.equal(0);
    const all = await readAll();
    expect(all.map((e) => e.change)).to.deep.equal(batch(4));
    expect(await redis().exists(PENDING('simulated'))).to.equal(0);
  });

  it('happy: a batch staged by a poll that crashed before publishing is published once by the next poll’s recovery', async () => {
    // The crashed poll: staged, maybe wrote the store, never published.
    await stageChanges('simulated', 'poll-1', batch(3));

    expect(await recoverStaged('simulated')).to.equal(3);
    expect(await recoverStaged('simulated')).to.equal(0);
    await stageChanges('simulated', 'poll-2', batch(2, 3));
    expect(await publishStaged('simulated')).to.equal(2);

    const all = await readAll();
    expect(all.map((e) => e.poll)).to.deep.equal(['poll-1', 'poll-1', 'poll-1', 'poll-2', 'poll-2']);
    expect(all.map((e) => e.change)).to.deep.equal(batch(5));
  });

  it('happy: a batch left staged is kept by the next stage and published first, once', async () => {
    await stageChanges('simulated', 'poll-1', batch(2));
    await stageChanges('simulated', 'poll-2', batch(2, 2));
    expect(await publishStaged('simulated')).to.equal(4);
    expect((await readAll()).map((e) => `${e.poll}/${e.change.eventId}`)).to.deep.equal(['poll-1/7100000', 'poll-1/7100001', 'poll-2/7100002', 'poll-2/7100003']);
  });

  it('happy: concurrent writers of one source each get their batch published once, whole and in order', async () => {
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => appendChanges('settlement', `settle-${i}`, batch(3, i * 3, 'settled'))));
    expect(counts).to.deep.equal(Array(20).fill(3));
    const all = await readAll();
    expect(all).to.have.length(60);
    for (let i = 0; i < 20; i++) {
      const at = all.findIndex((e) => e.poll === `settle-${i}`);
      expect(all.slice(at, at + 3).map((e) => e.change)).to.deep.equal(batch(3, i * 3, 'settled'));
      expect(all.filter((e) => e.poll === `settle-${i}`)).to.have.length(3);
    }
  });

  it('happy: publishing with nothing staged appends nothing', async () => {
    expect(await publishStaged('simulated')).to.equal(0);
    expect(await recoverStaged('simulated')).to.equal(0);
    expect(await appendChanges('simulated', 'poll-1', [])).to.equal(0);
    expect(await redis().exists(STREAM())).to.equal(0);
    expect(await feedWindow()).to.include({ oldestId: null, newestId: null });
    expect(await oldestChangeId()).to.equal(null);
  });

  it('happy: trimming by length keeps at most about CHANGE_FEED_MAXLEN, even after a batch far larger', async function () {
    this.timeout(60000);
    withMaxLen(1000);
    await appendChanges('simulated', 'poll-1', batch(1200));
    const afterFirst = await redis().xlen(STREAM());
    // Approximate trimming removes whole stream nodes (at most 100 entries each by default).
    expect(afterFirst).to.be.within(1000, 1100);
    // More than the 10,000 entries one approximate trim removes unless its LIMIT is lifted.
    await appendChanges('simulated', 'poll-2', batch(12000, 1200));
    expect(await redis().xlen(STREAM())).to.be.within(1000, 1100);
    const [[, newest]] = await redis().xrevrange(STREAM(), '+', '-', 'COUNT', 1);
    expect(newest).to.include('7113199');
    expect((await feedWindow()).maxLen).to.equal(1000);
  });

  it('happy: entries older than the retention are trimmed at the next publish', async () => {
    // Written as an earlier run would have, with ids of long ago.
    const old = batch(300);
    for (let i = 0; i < old.length; i++) await redis().xadd(STREAM(), `1000-${i + 1}`, ...encodeChange(old[i], 'old-poll'));
    await appendChanges('simulated', 'poll-1', batch(2, 300));
    const ids = (await redis().xrange(STREAM(), '-', '+')).map(([id]) => id);
    // What stays is at most the last node, shared with the new entries.
    expect(ids.filter((id) => id.startsWith('1000-')).length).to.be.at.most(100);
    expect(ids.slice(-2).every((id) => !id.startsWith('1000-'))).to.equal(true);
  });

  it('error: a reader whose id is older than the oldest retained entry is told of the gap', async () => {
    withMaxLen(1000);
    await appendChanges('simulated', 'poll-1', batch(10));
    const { entries } = await readChanges(null, 1);
    const seen = entries[0].id;
    await appendChanges('simulated', 'poll-2', batch(1500, 10));

    const oldest = (await oldestChangeId())!;
    const behind = await readChanges(seen, 5);
    expect(behind.gap).to.equal(true);
    expect(behind.entries[0].id).to.equal(oldest);

    expect((await readChanges(oldest, 5)).gap).to.equal(false);
    expect((await readChanges(null, 5)).gap).to.equal(false);
    expect(await readChanges((await feedWindow()).newestId, 5)).to.deep.equal({ entries: [], gap: false });

    // A flushed Redis: the reader's position is gone with everything before it.
    await redis().del(STREAM());
    expect(await readChanges(oldest, 5)).to.deep.equal({ entries: [], gap: true });
  });

  it('error: a malformed position, a count below 1 or an invalid change is refused, with nothing written', async () => {
    for (const id of ['(1-0', '1', '-', 'abc']) await expectRejected(readChanges(id, 10), RangeError);
    await expectRejected(readChanges(null, 0), RangeError);
    const bad = [...batch(2), { eventId: '7100009', kind: 'odds', at: new Date(KICKOFF), data: {} } as unknown as Change];
    await expectRejected(stageChanges('simulated', 'poll-1', bad), Error);
    await expectRejected(appendChanges('simulated', 'poll-1', bad), Error);
    expect(await redis().exists(PENDING('simulated'), STREAM())).to.equal(0);
  });

  it('error: the feed of another Redis prefix (another run or deployment) is neither read nor published', async () => {
    const own = getConfig().REDIS_PREFIX;
    const other = `${own}x`;
    setEnvForChildren({ REDIS_PREFIX: other });
    const otherKeys = [STREAM(), PENDING('simulated')];
    try {
      await appendChanges('simulated', 'other-1', batch(3));
      await stageChanges('simulated', 'other-2', batch(2, 3));
    } finally {
      setEnvForChildren({ REDIS_PREFIX: own });
    }
    try {
      expect(otherKeys.every((k) => k.startsWith(`${other}:`))).to.equal(true);
      expect(await readChanges(null, 10)).to.deep.equal({ entries: [], gap: false });
      expect(await feedWindow()).to.include({ oldestId: null, newestId: null });
      expect(await publishStaged('simulated')).to.equal(0);
      expect(await redis().xlen(otherKeys[0])).to.equal(3);
      expect(await redis().llen(otherKeys[1])).to.equal(24);
    } finally {
      await redis().del(...otherKeys);
    }
  });
});

async function expectRejected(promise: Promise<unknown>, type: new (...args: never[]) => Error): Promise<void> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(type);
    return;
  }
  expect.fail('expected a rejection');
}
