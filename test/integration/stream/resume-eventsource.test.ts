import { expect } from 'chai';
import { EventSource } from 'eventsource';
import { createApp } from '../../../api/app';
import { mulberry32 } from '../../../shared/domain/ai/random';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { appendChanges, readChanges, type Change } from '../../../shared/platform/feed/changeFeed';
import { serve, type TestServer } from '../../helpers/api';
import { overrideEnv } from '../../../shared/platform/config';
import { accountWithKey } from '../../helpers/meteredApp';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Cut-offs in all: CUT_READERS readers, each cut CUTS_EACH times, side by side (a reader cut 100 times in a row would take an hour). */
const CUT_READERS = 50;
const CUTS_EACH = 2;
/** How long a cut lasts: 1 to 60 s, as a proxy or a mobile network drops a client (a reader's cuts together at most 61 s, so the test takes about a minute). */
const CUT_MIN_MS = 1000;
const CUT_MAX_MS = 60000;
const CUTS_TOTAL_MAX_MS = 61000;
/** Connected between cuts. */
const UP_MIN_MS = 500;
const UP_MAX_MS = 4000;
const EVENTS = Array.from({ length: 40 }, (_, i) => String(9100000 + i));

interface Received {
  id: string;
  event: string;
  conflated: boolean;
}

/**
 * A reader of GET /v2/stream built on the `eventsource` package (a client this project did not
 * write): it reconnects by itself with Last-Event-ID. Its fetch is where the network is cut: the
 * open connection is aborted after a while, and the reconnect that follows waits out the cut.
 */
function reader(url: string, key: string, cuts: number[], ups: number[]): { got: Received[]; es: EventSource; cutsLeft: () => number; resumed: () => boolean; errors: string[] } {
  const got: Received[] = [];
  const errors: string[] = [];
  let connections = 0;
  let cut = 0;
  const es = new EventSource(url, {
    fetch: async (input, init) => {
      const n = connections++;
      // A reconnect after a cut waits out the rest of the cut (EventSource itself waits `retry`, 2 s).
      if (n > 0) await sleep(Math.max(0, cuts[n - 1] - 2000));
      const controller = new AbortController();
      init.signal?.addEventListener('abort', () => controller.abort());
      const upstream = await fetch(input, { ...init, headers: { ...init.headers, Authorization: `Bearer ${key}` }, signal: controller.signal });
      if (!upstream.body) return upstream;
      const source = upstream.body.getReader();
      // The body as the client sees it: a cut ends it where it stands, as a proxy closing the
      // connection does (EventSource takes its own aborts for a close and would not reconnect).
      let cutNow: () => void = () => undefined;
      // The cut comes a while after the connection's first message: a client cut off before it ever
      // got an id has nothing to resume from (it starts again from now, as EventSource must).
      let armed = n >= cuts.length;
      const arm = (chunk: Uint8Array) => {
        if (armed || !new TextDecoder().decode(chunk).includes('id: ')) return;
        armed = true;
        setTimeout(() => {
          cut++;
          cutNow();
        }, ups[n]);
      };
      const body = new ReadableStream<Uint8Array>({
        start(sink) {
          cutNow = () => {
            controller.abort();
            try {
              sink.close();
            } catch {
              // already ended
            }
          };
          void (async () => {
            try {
              for (;;) {
                const { done, value } = await source.read();
                if (done) break;
                sink.enqueue(value);
                arm(value);
              }
              sink.close();
            } catch (err) {
              try {
                sink.error(err);
              } catch {
                // closed by the cut
              }
            }
          })();
        },
      });
      return new Response(body, { status: upstream.status, headers: upstream.headers });
    },
  });
  for (const channel of ['odds', 'scores', 'status']) {
    es.addEventListener(channel, (e: MessageEvent) => {
      const data = JSON.parse(String(e.data)) as { conflated?: boolean };
      got.push({ id: e.lastEventId, event: channel, conflated: data.conflated === true });
    });
  }
  es.addEventListener('snapshot_required', (e: MessageEvent) => errors.push(`snapshot_required ${String(e.data)}`));
  let opened = 0;
  es.addEventListener('open', () => opened++);
  return { got, es, cutsLeft: () => cuts.length - cut, resumed: () => opened === cuts.length + 1 && es.readyState === EventSource.OPEN, errors };
}

describe('GET /v2/stream: readers cut off and resumed by the eventsource package receive exactly what an unbroken reader does', function () {
  this.timeout(CUTS_TOTAL_MAX_MS + CUTS_EACH * UP_MAX_MS + 90000);
  let server: TestServer;
  let writing = true;
  let restoreEnv: () => void = () => undefined;

  before(async () => {
    await connectMongo();
    restoreEnv = overrideEnv({ STREAM_POLL_MS: '100', STREAM_MAX_CONNECTIONS_LIVE: '1000', RATE_LIMIT_LIVE_RPS: '1000' });
    server = await serve(createApp());
  });
  after(async () => {
    writing = false;
    await server.close();
    restoreEnv();
  });

  it(`happy: ${CUT_READERS * CUTS_EACH} cut-offs of 1 to 60 s at demo speed: every reader gets the unbroken sequence (0 lost, 0 repeated, 0 merged, every message with an id)`, async () => {
    const { key } = await accountWithKey(100000);
    const url = `${server.url}/v2/stream?eventIds=${EVENTS.join(',')}`;
    const random = mulberry32(20261202);
    const between = (lo: number, hi: number) => Math.round(lo + random() * (hi - lo));
    const unbroken = reader(url, key, [], []);
    const cutsOf = () => {
      const cuts: number[] = [];
      let left = CUTS_TOTAL_MAX_MS;
      for (let i = 0; i < CUTS_EACH; i++) {
        const ms = between(CUT_MIN_MS, Math.max(CUT_MIN_MS, Math.min(CUT_MAX_MS, left - (CUTS_EACH - 1 - i) * CUT_MIN_MS)));
        cuts.push(ms);
        left -= ms;
      }
      return random() < 0.5 ? cuts : cuts.reverse();
    };
    const cut = Array.from({ length: CUT_READERS }, () =>
      reader(
        url,
        key,
        cutsOf(),
        Array.from({ length: CUTS_EACH }, () => between(UP_MIN_MS, UP_MAX_MS)),
      ),
    );
    const all = [unbroken, ...cut];
    // Every reader connected before the first change.
    while (all.some((r) => r.es.readyState !== EventSource.OPEN)) await sleep(50);
    await sleep(300);
    const first = Date.now();

    // Demo speed: what the default world at 120x stores per 2 s poll, about 100 prices and 10 live-data changes, in 10 batches a second apart.
    let seq = 0;
    const writer = (async () => {
      while (writing) {
        const batch: Change[] = [];
        for (let i = 0; i < 10; i++) {
          const eventId = EVENTS[seq % EVENTS.length];
          const kind = seq % 10 === 9 ? 'score' : seq % 37 === 0 ? 'status' : 'price';
          const data =
            kind === 'price' ? { items: [{ id: `${eventId}-${seq % 3}`, price: 1.5 + (seq % 50) / 10, isAvailable: true }] } : kind === 'score' ? { home: seq, away: 0 } : { status: 'live' };
          batch.push({ eventId, kind, at: new Date(), data, provider: 'simulated' });
          seq++;
        }
        await appendChanges('resume-eventsource-test', `r${seq}`, batch);
        await sleep(200);
      }
    })();
    // Until every reader was cut as often as planned and is connected again; a little more, then the writer stops.
    const until = Date.now() + CUTS_TOTAL_MAX_MS + CUTS_EACH * UP_MAX_MS + 20000;
    while (cut.some((r) => !r.resumed()) && Date.now() < until) await sleep(500);
    expect(cut.map((r, i) => [i, r.cutsLeft(), r.es.readyState, r.resumed()]).filter((x) => !x[3])).to.deep.equal([]);
    await sleep(2000);
    writing = false;
    await writer;
    // The feed as stored after the first change, as every reader should have it.
    const stored: string[] = [];
    let after: string | null = null;
    for (;;) {
      const { entries } = await readChanges(after, 1000);
      if (!entries.length) break;
      stored.push(...entries.filter((e) => EVENTS.includes(e.change.eventId) && e.change.at.getTime() >= first).map((e) => e.id));
      after = entries[entries.length - 1].id;
    }
    const deadline = Date.now() + 60000;
    while (all.some((r) => r.got.length < stored.length) && Date.now() < deadline) await sleep(200);
    for (const r of all) r.es.close();

    expect(stored.length, `changes written ${seq}, stored after the first ${stored.length}`).to.be.above(1000);
    expect(unbroken.got.map((m) => m.id)).to.deep.equal(stored);
    let cuts = 0;
    for (const [i, r] of cut.entries()) {
      cuts += CUTS_EACH - r.cutsLeft();
      const ids = r.got.map((m) => m.id);
      const have = new Set(ids);
      const lostAt = stored.flatMap((id, at) => (have.has(id) ? [] : [at]));
      const lost = lostAt.length;
      const firstLostAt = lostAt[0] ?? -1;
      const repeated = ids.length - new Set(ids).size;
      const merged = r.got.filter((m) => m.conflated).length;
      const withoutId = r.got.filter((m) => !m.id).length;
      expect({ reader: i, lost, firstLostAt, repeated, merged, withoutId, errors: r.errors }).to.deep.equal({ reader: i, lost: 0, firstLostAt: -1, repeated: 0, merged: 0, withoutId: 0, errors: [] });
      expect(ids).to.deep.equal(stored);
    }
    expect(cuts).to.equal(CUT_READERS * CUTS_EACH);
  });
});
