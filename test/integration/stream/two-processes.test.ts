import { request } from 'node:http';
import { expect } from 'chai';
import { getConfig } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { appendChanges, type Change } from '../../../shared/platform/feed/changeFeed';
import { slotsHeld } from '../../../shared/platform/stream/slots';
import { accountWithKey, bearer } from '../../helpers/meteredApp';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';
import { openSse } from '../../helpers/sse';
import { freePort } from '../../helpers/stack';

const SHUTDOWN_TIMEOUT_MS = 5000;
const at = new Date('2026-11-27T15:00:00Z');
let seq = 0;
const score = (eventId: string, home: number): Change => ({ eventId, kind: 'score', at: new Date(at.getTime() + seq++), data: { home, away: 0 }, provider: 'simulated' });
const append = (changes: Change[]) => appendChanges('stream-processes-test', `b${seq++}`, changes);

interface RawMessage {
  id: string | null;
  home: unknown;
}

/**
 * A stream read with node:http, to tell how it ended: `end` is a complete response (the server
 * ended it), `aborted` a connection cut short.
 */
function rawStream(url: string, headers: Record<string, string>): Promise<{ messages: RawMessage[]; ended: Promise<'end' | 'aborted'> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET ${url} answered ${res.statusCode}`));
      const messages: RawMessage[] = [];
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const lines = buf.slice(0, cut).split('\n');
          buf = buf.slice(cut + 2);
          const data = lines.find((l) => l.startsWith('data: '));
          if (!data) continue;
          const parsed: { data?: { home?: unknown } } = JSON.parse(data.slice(6));
          messages.push({ id: lines.find((l) => l.startsWith('id: '))?.slice(4) ?? null, home: parsed.data?.home });
        }
      });
      const ended = new Promise<'end' | 'aborted'>((done) => {
        res.once('end', () => done('end'));
        res.once('aborted', () => done('aborted'));
        res.once('error', () => done('aborted'));
      });
      resolve({ messages, ended });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /v2/stream served by two web processes (workers/web.ts, each its own OS process)', function () {
  this.timeout(60000);
  const webs: Spawned[] = [];
  const startWeb = async (): Promise<{ web: Spawned; url: string }> => {
    const port = await freePort();
    const cfg = getConfig();
    const web = spawnEntry('workers/web.ts', {
      MONGODB_DB: cfg.MONGODB_DB,
      REDIS_PREFIX: cfg.REDIS_PREFIX,
      PORT: String(port),
      HOST: '127.0.0.1',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      STREAM_POLL_MS: '100',
    });
    webs.push(web);
    const url = `http://127.0.0.1:${port}`;
    await waitUntil(
      `web on ${port}`,
      async () => {
        if (web.child.exitCode !== null) throw new Error(`web exited: ${web.output()}`);
        return (await fetch(`${url}/v2/health`).catch(() => null))?.status === 200;
      },
      40000,
      200,
    );
    return { web, url };
  };

  before(connectMongo);
  after(async () => {
    for (const w of webs) if (w.child.exitCode === null) (w.child.kill('SIGKILL'), await w.exited);
  });

  it('happy: process A stopped with SIGTERM ends its stream at once; the client resumes on process B with its last id and gets exactly the missed messages, then live', async () => {
    const [a, b] = await Promise.all([startWeb(), startWeb()]);
    const { key, keyId } = await accountWithKey(1000);
    const eventId = '8810001';
    const onA = await rawStream(`${a.url}/v2/stream?eventIds=${eventId}`, bearer(key));
    await new Promise((r) => setTimeout(r, 300));
    await append([score(eventId, 1), score(eventId, 2)]);
    await waitUntil('two messages from A', () => onA.messages.length === 2, 5000, 20);
    expect(await slotsHeld(keyId)).to.equal(1);

    // A stops: its open stream is ended by the server (a complete response, not a cut connection),
    // well within the shutdown timeout, and the process exits 0 having released the stream's slot.
    const stoppedAt = Date.now();
    a.web.child.kill('SIGTERM');
    expect(await onA.ended).to.equal('end');
    expect(Date.now() - stoppedAt).to.be.below(SHUTDOWN_TIMEOUT_MS);
    expect((await a.web.exited).code).to.equal(0);
    expect(await slotsHeld(keyId)).to.equal(0);
    expect(onA.messages.map((m) => m.home)).to.deep.equal([1, 2]);
    const lastId = onA.messages[1].id;
    expect(lastId).to.match(/^\d+-\d+$/);

    // Stored while the client is between processes.
    await append([score(eventId, 3), score(eventId, 4), score(eventId, 5)]);
    const onB = await openSse(`${b.url}/v2/stream?eventIds=${eventId}`, { ...bearer(key), 'Last-Event-ID': lastId ?? '' });
    try {
      expect(onB.status).to.equal(200);
      const missed = await onB.waitFor(3);
      expect(missed.map((m) => m.data.data?.home)).to.deep.equal([3, 4, 5]);
      await append([score(eventId, 6)]);
      await onB.waitFor(4);
      await new Promise((r) => setTimeout(r, 300));
      expect(onB.messages.map((m) => m.data.data?.home)).to.deep.equal([3, 4, 5, 6]);
      expect(onB.messages.map((m) => m.event)).to.deep.equal(['scores', 'scores', 'scores', 'scores']);
      // Ids go on from A's: ordered, none repeated.
      const ids = [lastId, ...onB.messages.map((m) => m.id)].map((id) => (id ?? '').split('-').map(Number));
      for (let i = 1; i < ids.length; i++) expect(ids[i][0] > ids[i - 1][0] || (ids[i][0] === ids[i - 1][0] && ids[i][1] > ids[i - 1][1])).to.equal(true);
    } finally {
      onB.close();
    }
  });
});
