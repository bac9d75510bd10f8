import { request } from 'node:http';
import { expect } from 'chai';
import { createApp } from '../../../api/app';
import { setEnvForChildren } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { appendChanges, readChanges, type ChangeEntry } from '../../../shared/platform/feed/changeFeed';
import { compareChangeIds } from '../../../shared/domain/feed/changes';
import { serve, type TestServer } from '../../helpers/api';
import { overrideEnv } from '../../../shared/platform/config';
import { accountWithKey, bearer } from '../../helpers/meteredApp';
import { openSse, type SseClient, type SseMessage } from '../../helpers/sse';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const at = new Date('2026-11-28T15:00:00Z');
const EVENTS = Array.from({ length: 10 }, (_, i) => String(8950000 + i));

/** Parses SSE text into messages (ids kept as sent; comments dropped). */
function parse(text: string): SseMessage[] {
  const out: SseMessage[] = [];
  for (const block of text.split('\n\n')) {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) out.push({ id, event, data: JSON.parse(data.join('\n')) });
  }
  return out;
}

/**
 * A reader that really stays behind (its socket paused past STREAM_SLOW_READER_MS) gets what it
 * did not read merged, each merged message saying so, and every message carries an id a resume
 * from which is exact: nothing before it is missing, and the resumed stream is exactly the feed
 * after it.
 */
describe('GET /v2/stream: a reader that stays behind', function () {
  this.timeout(60000);
  let server: TestServer;
  const open: SseClient[] = [];
  const closers: (() => void)[] = [];
  let restoreEnv: () => void = () => undefined;

  before(async () => {
    await connectMongo();
    restoreEnv = overrideEnv({ STREAM_POLL_MS: '100', STREAM_SLOW_READER_MS: '1000', STREAM_MAX_PENDING: '1000', RATE_LIMIT_LIVE_RPS: '1000' });
    server = await serve(createApp());
  });
  after(async () => {
    for (const c of open.splice(0)) c.close();
    for (const close of closers.splice(0)) close();
    await server.close();
    restoreEnv();
  });

  it('happy: a paused socket gets merged messages that say so; every message has an id, and resuming from a merged one is exact', async () => {
    const { key } = await accountWithKey(1000);
    const query = `?channels=scores&eventIds=${EVENTS.join(',')}`;
    const chunks: Buffer[] = [];
    let resumeReading: () => void = () => undefined;
    const opened = new Promise<void>((resolve, reject) => {
      const req = request(`${server.url}/v2/stream${query}`, { headers: bearer(key) }, (res) => {
        res.pause();
        resumeReading = () => {
          res.on('data', (d: Buffer) => chunks.push(d));
          res.resume();
        };
        resolve();
      });
      req.on('error', reject);
      req.end();
      closers.push(() => req.destroy());
    });
    await opened;
    await sleep(300);
    // 3,000 score changes of 10 events, 8 KB each: far more than the socket's buffers hold.
    const pad = 'x'.repeat(8000);
    for (let round = 0; round < 30; round++) {
      const batch = Array.from({ length: 100 }, (_, i) => ({ eventId: EVENTS[i % EVENTS.length], kind: 'score' as const, at, data: { home: round * 100 + i, pad } }));
      await appendChanges('slow-reader-test', `slow-${round}`, batch);
    }
    // Behind for longer than STREAM_SLOW_READER_MS, then reading again.
    await sleep(2500);
    resumeReading();
    // The feed as stored, for these events.
    const stored: ChangeEntry[] = [];
    let after: string | null = null;
    for (;;) {
      const { entries } = await readChanges(after, 1000);
      if (!entries.length) break;
      stored.push(...entries.filter((e) => EVENTS.includes(e.change.eventId)));
      after = entries[entries.length - 1].id;
    }
    expect(stored.length).to.equal(3000);
    const first = stored[0].id;
    const head = stored[stored.length - 1].id;
    // Until the message that covers the last stored entry arrives.
    const deadline = Date.now() + 30000;
    let got: SseMessage[] = [];
    while (Date.now() < deadline) {
      got = parse(Buffer.concat(chunks).toString('utf8')).filter((m) => m.event === 'scores');
      if (got.some((m) => m.id === head)) break;
      await sleep(200);
    }
    expect(
      got.some((m) => m.id === head),
      'the last stored entry reached the reader',
    ).to.equal(true);

    const merged = got.filter((m) => m.data.conflated === true);
    expect(merged.length, 'merged messages').to.be.above(0);
    expect(got.length).to.be.below(3000);
    for (const m of got) expect(m.id, 'every message has an id').to.match(/^\d+-\d+$/);
    for (const m of merged) {
      expect(m.data.merged).to.be.a('number').and.above(1);
      expect(m.data.firstEntryId).to.be.a('string');
      expect(m.data.lastEntryId).to.be.a('string');
    }
    // After each message, every stored entry up to its id was in it or before it.
    const covered = new Set<string>();
    const order = stored.map((e) => e.id);
    for (const m of got) {
      if (m.data.conflated) {
        for (const e of stored) {
          if (e.change.eventId === m.data.eventId && compareChangeIds(e.id, String(m.data.firstEntryId)) >= 0 && compareChangeIds(e.id, String(m.data.lastEntryId)) <= 0) covered.add(e.id);
        }
      } else covered.add(String(m.id));
      const resumeAt = String(m.id);
      const missing = order.filter((id) => compareChangeIds(id, resumeAt) <= 0 && !covered.has(id));
      expect(missing, `entries up to ${resumeAt} not received`).to.deep.equal([]);
    }
    expect(covered.size).to.equal(3000);
    expect(compareChangeIds(String(got[0].id), first)).to.be.at.least(0);

    // Resume from a merged message's id: exactly the stored entries after it, each its own message
    // (a reader that keeps up: the bound back to its default, so the replay is not merged).
    setEnvForChildren({ STREAM_SLOW_READER_MS: '60000' });
    const from = String(merged[0].id);
    const expected = stored.filter((e) => compareChangeIds(e.id, from) > 0).map((e) => e.id);
    const again = await openSse(`${server.url}/v2/stream${query}`, { ...bearer(key), 'Last-Event-ID': from });
    open.push(again);
    const until = Date.now() + 30000;
    while (again.messages.length < expected.length && Date.now() < until && !again.isEnded()) await sleep(200);
    await sleep(300);
    expect(again.messages.map((m) => m.id)).to.deep.equal(expected);
    expect(again.messages.filter((m) => m.data.conflated).length).to.equal(0);
  });
});
