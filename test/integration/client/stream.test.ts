import type { Server } from 'node:http';
import { expect } from 'chai';
import { createClient, type StreamItem } from '../../../clients/typescript/src/index';
import { createApp } from '../../../api/app';
import { listen } from '../../../api/server';
import { setEnvForChildren } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { appendChanges, type Change } from '../../../shared/platform/feed/changeFeed';
import { accountWithKey } from '../../helpers/meteredApp';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const EVENT = String(8_600_000_000 + (Date.now() % 1e6));
let seq = 0;
const score = (home: number): Change => ({ eventId: EVENT, kind: 'score', at: new Date(Date.now() + seq++), data: { home, away: 0 }, provider: 'simulated' });
const append = (homes: number[]) => appendChanges('client-stream-test', `c${seq++}`, homes.map(score));

/** Waits until `items` holds `n` items (or fails naming what came). */
async function until(items: StreamItem[], n: number, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (items.length < n) {
    if (Date.now() > deadline) throw new Error(`${items.length} of ${n} items: ${JSON.stringify(items)}`);
    await sleep(20);
  }
}

/**
 * The typed client's stream() over the real app: a connection the server drops (the server
 * stopped, every socket destroyed, started again on the same port) is resumed with the last id,
 * and every change arrives exactly once, in order, across the reconnect.
 */
describe('typed client: stream() follows the resume contract across a forced disconnect', function () {
  this.timeout(40000);
  let server: Server;
  let port = 0;
  const start = async () => {
    server = await listen(createApp(), port, '127.0.0.1');
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('the server has no port');
    port = address.port;
  };
  const stop = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));

  before(async () => {
    await connectMongo();
    setEnvForChildren({ STREAM_POLL_MS: '100', STREAM_HEARTBEAT_MS: '15000', RATE_LIMIT_LIVE_RPS: '1000' });
    await start();
  });
  after(() => stop());

  it('happy: changes before, during and after the server is down arrive once each, in order, with the resume sent as Last-Event-ID', async () => {
    const { key } = await accountWithKey(1000);
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key });
    const connects: (string | undefined)[] = [];
    const stream = client.stream({ eventIds: [EVENT], channels: ['scores'], retryMs: 300, onConnect: ({ lastEventId }) => connects.push(lastEventId) });
    const items: StreamItem[] = [];
    const reading = (async () => {
      for await (const item of stream) items.push(item);
    })();
    await sleep(400);
    await append([1, 2, 3]);
    await until(items, 3);
    const beforeDrop = stream.lastEventId;
    expect(beforeDrop).to.match(/^\d+-\d+$/);

    // Forced disconnect: the server goes away with its sockets; changes go on being stored.
    await stop();
    await append([4, 5]);
    await sleep(500);
    await append([6]);
    await start();
    await until(items, 6);
    await append([7, 8]);
    await until(items, 8);
    await sleep(300);
    stream.close();
    await reading;

    expect(items.map((i) => i.type)).to.deep.equal(Array(8).fill('change'));
    expect(items.map((i) => (i.type === 'change' && i.channel === 'scores' ? i.data : null))).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8].map((home) => ({ home, away: 0 })));
    const ids = items.map((i) => (i.type === 'change' ? i.id : null));
    expect(new Set(ids).size).to.equal(8);
    expect(stream.lastEventId).to.equal(ids[7]);
    // Opened from now, then resumed (at least once) from the last id received before the drop.
    expect(connects[0]).to.equal(undefined);
    expect(connects.slice(1)).to.include(beforeDrop);
    expect(connects.slice(1).every((id) => id === beforeDrop)).to.equal(true);
  });

  it('happy: an id past the window is snapshot_required, handed to the caller, then the stream goes on live', async () => {
    const { key } = await accountWithKey(1000);
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key });
    const stream = client.stream({ eventIds: [EVENT], lastEventId: '1-0' });
    const it = stream[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value).to.deep.include({ type: 'snapshot_required' });
    expect(first.value).to.have.property('reason').that.is.oneOf(['outside_window', 'unknown_id', 'trimmed']);
    const next = it.next();
    await sleep(300);
    await append([9]);
    expect((await next).value).to.deep.include({ type: 'change', channel: 'scores', data: { home: 9, away: 0 } });
    stream.close();
  });

  it('error: a refused stream (no credits) is one error item in the error shape, then the end', async () => {
    const { key } = await accountWithKey(0);
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key });
    const items: StreamItem[] = [];
    for await (const item of client.stream()) items.push(item);
    expect(items).to.have.length(1);
    expect(items[0]).to.deep.include({ type: 'error', status: 402 });
    expect(items[0].type === 'error' && items[0].error).to.include({ statusCode: 402, code: 'payment_required' });
  });
});
