/**
 * `npm run bench:stream`: the targets of GET /v2/stream (docs/stream.md), against one web
 * process (bench/servers/streamServer.ts: createApp as workers/web.ts serves it) in its own OS
 * process, on the run's own database and Redis prefix.
 *
 * 1. Memory: the web process's RSS and heap (after a full GC) before and after opening `--streams`
 *    streams (1,000) that then sit idle; memory per idle stream = the delta / streams.
 * 2. Lag: changes appended to the change feed at demo speed (`--batch` changes every `--every` ms:
 *    by default 100 every 2 s, the order of what the default world at 120x stores per 2 s poll: about
 *    100 prices and 10 live-data changes, docs/benchmarks.md "Pipeline"), each with the time it was
 *    stored in its data; for every message each stream receives, received minus stored: p50, p99,
 *    max over all streams.
 * 3. Resume: while changes keep flowing, `--disconnects` (100) times a random stream is aborted and
 *    reconnected, after a random pause up to `--pause` ms, with its last id as Last-Event-ID. Every
 *    change carries a sequence number (the appender is the feed's only writer, so its order is the
 *    feed's); each stream must receive every change from the first on, once, in order; the feed read
 *    back with readChanges must hold them all in that order, and each resume's id must be the feed
 *    id of the last change the stream had.
 *
 * Keys: `--keys` (20) live keys with credits share the streams; STREAM_MAX_CONNECTIONS_LIVE is
 * raised for the run to twice the streams per key (a reconnect may arrive before the aborted
 * connection's slot is released) and the key's rate limit lifted: both are what one web process
 * can hold, not what one key may.
 * Usage: npm run bench:stream [-- --streams 1000 --keys 20 --batch 100 --every 2000 --seconds 60 --disconnects 100 --pause 5000 --profile <dir>]
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { fork, type ChildProcess } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { integer, option } from './args';
import { dropRunData, startBenchRun } from './run';
import type { StreamServerStats } from './servers/streamServer';

const B = 'bench:stream';
const STREAMS = integer(B, 'streams', 1000, 20000);
const KEYS = integer(B, 'keys', 20, 1000);
const BATCH = integer(B, 'batch', 100, 10000);
const EVERY_MS = integer(B, 'every', 2000, 60000, 10);
const SECONDS = integer(B, 'seconds', 60, 3600);
const DISCONNECTS = integer(B, 'disconnects', 100, 100000, 0);
const PAUSE_MS = integer(B, 'pause', 5000, 600000, 0);
/** --profile <dir>: the web process writes a V8 CPU profile there (where its time goes). */
const PROFILE_DIR = option(B, 'profile', '');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Received-minus-stored lags, 1 ms buckets up to a minute (beyond: the last bucket). */
class LagHistogram {
  private readonly buckets = new Uint32Array(60001);
  count = 0;
  max = 0;
  add(ms: number): void {
    const b = Math.max(0, Math.min(60000, Math.round(ms)));
    this.buckets[b]++;
    this.count++;
    if (ms > this.max) this.max = ms;
  }
  percentile(p: number): number {
    const target = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i];
      if (seen >= target) return i;
    }
    return this.max;
  }
}

interface Tally {
  lag: LagHistogram;
  lost: number;
  duplicated: number;
  withoutId: number;
  conflated: number;
  /** Messages that should not come (snapshot_required, error): counted, the first kept. */
  unexpected: number;
  firstUnexpected: string;
}

const newTally = (): Tally => ({ lag: new LagHistogram(), lost: 0, duplicated: 0, withoutId: 0, conflated: 0, unexpected: 0, firstUnexpected: '' });

/** One stream client over node:http: parses the SSE blocks, checks each change's sequence number as it arrives. */
class StreamClient {
  lastId: string | null = null;
  lastSeq = -1;
  /** Next sequence number expected (every change from the first appended on). */
  expected = 0;
  connected = false;
  ended = false;
  /** (seq, id) of the last message before each resume: the id must be that change's feed id. */
  readonly resumedFrom: { seq: number; id: string }[] = [];
  private req: ReturnType<typeof request> | null = null;
  /** Bumped by each open: the events of an aborted connection's response do not touch the next one's state. */
  private generation = 0;

  constructor(
    private readonly url: URL,
    private readonly key: string,
    private readonly tally: Tally,
  ) {}

  open(lastEventId: string | null): Promise<void> {
    const generation = ++this.generation;
    return new Promise((resolveOpen, reject) => {
      const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${this.key}` };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      const req = request(this.url, { headers, agent: false }, (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => reject(new Error(`GET /v2/stream answered ${res.statusCode}: ${body}`)));
          return;
        }
        this.connected = true;
        this.ended = false;
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (chunk: string) => {
          buf += chunk;
          let cut: number;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            this.block(buf.slice(0, cut));
            buf = buf.slice(cut + 2);
          }
        });
        const gone = () => {
          if (generation !== this.generation) return;
          this.connected = false;
          this.ended = true;
        };
        res.on('end', gone);
        res.on('close', gone);
        res.on('error', gone);
        resolveOpen();
      });
      req.on('error', (err) => {
        if (generation !== this.generation) return;
        this.connected = false;
        this.ended = true;
        reject(err);
      });
      this.req = req;
      req.end();
    });
  }

  private block(block: string): void {
    const now = Date.now();
    // Read without JSON.parse: the client's own work stays small beside the server's (it shares the machine).
    const dataAt = block.indexOf('data: ');
    if (dataAt < 0) return; // retry line, heartbeat comment
    const found = SEQ.exec(block);
    if (!found) {
      if (!this.tally.unexpected++) this.tally.firstUnexpected = block;
      return;
    }
    const seq = Number(found[1]);
    const storedAt = Number(found[2]);
    if (block.includes('"conflated":true')) this.tally.conflated++;
    this.tally.lag.add(now - storedAt);
    if (seq < this.expected) this.tally.duplicated++;
    else {
      this.tally.lost += seq - this.expected;
      this.expected = seq + 1;
    }
    const id = block.startsWith('id: ') ? block.slice(4, block.indexOf('\n')) : null;
    if (id === null) this.tally.withoutId++;
    else {
      this.lastId = id;
      this.lastSeq = seq;
    }
  }

  /** Aborts the connection (the client goes away mid-stream). */
  abort(): void {
    const req = this.req;
    this.req = null;
    this.connected = false;
    req?.destroy();
  }

  async resume(): Promise<void> {
    if (this.lastId === null) throw new Error('a stream resumed before its first message');
    this.resumedFrom.push({ seq: this.lastSeq, id: this.lastId });
    await this.open(this.lastId);
  }
}

/** The sequence number and store time the bench puts in each change's data (JSON keeps their order). */
const SEQ = /"seq":(\d+),"storedAt":(\d+)/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function startServer(env: Record<string, string>, base: Record<string, string | undefined>): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(resolve(__dirname, 'servers/streamServer.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE_DIR)}`] : [])],
    env: { ...base, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((res, rej) => {
    child.once('message', (m: { port?: number }) => (m.port ? res({ child, port: m.port }) : rej(new Error('the stream server sent no port'))));
    child.once('exit', (code) => rej(new Error(`the stream server exited with ${code}`)));
  });
}

/** The web process's figures; `gc`: after a full collection (memory measured; it pauses the process). */
function stats(child: ChildProcess, gc = false): Promise<StreamServerStats> {
  return new Promise((res) => {
    const on = (m: { stats?: StreamServerStats }) => {
      if (!m.stats) return;
      child.off('message', on);
      res(m.stats);
    };
    child.on('message', on);
    child.send({ cmd: 'stats', gc });
  });
}

/** Runs `fn` over `items`, `concurrency` at a time. */
async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

async function main(): Promise<void> {
  const perKey = Math.ceil(STREAMS / KEYS);
  const env = {
    NODE_ENV: 'production',
    PAYMENT_GATEWAY: 'none',
    STREAM_MAX_CONNECTIONS_LIVE: String(2 * perKey),
    RATE_LIMIT_LIVE_RPS: '1000000',
  };
  const { local } = await startBenchRun('bench_stream', env);
  const { bootstrapEnv } = await import('../shared/platform/config');
  const { connectMongo, disconnectMongo } = await import('../shared/platform/db/mongo');
  const { closeAllRedis } = await import('../shared/platform/db/redis');
  const { addCredits, createAccount, createKey } = await import('../shared/app/billing/accounts');
  const { processContext } = await import('../shared/app/processContext');
  const { appendChanges, readChanges } = await import('../shared/platform/feed/changeFeed');
  type Change = import('../shared/platform/feed/changeFeed').Change;

  let server: ChildProcess | undefined;
  const clients: StreamClient[] = [];
  try {
    await connectMongo();
    const keys: string[] = [];
    for (let i = 0; i < KEYS; i++) {
      const account = await createAccount(processContext(), { name: `bench stream ${i}` });
      await addCredits(processContext(), { accountId: String(account.id), packageCredits: 2000000 });
      keys.push((await createKey(processContext(), { accountId: String(account.id), name: 'bench' })).key);
    }
    const started = await startServer({}, bootstrapEnv().all);
    server = started.child;
    const url = new URL(`http://127.0.0.1:${started.port}/v2/stream`);
    const tally = newTally();

    // Warm-up: the routes, the key check and the feed reader's code run once; then the baseline.
    const warm = new StreamClient(url, keys[0], newTally());
    await warm.open(null);
    await sleep(500);
    warm.abort();
    await sleep(1000);
    const before = await stats(server, true);

    process.stderr.write(`opening ${STREAMS} streams (${KEYS} live keys, ${perKey} each)...\n`);
    const t0 = performance.now();
    for (let i = 0; i < STREAMS; i++) clients.push(new StreamClient(url, keys[i % KEYS], tally));
    await pool(clients, 50, (c) => c.open(null));
    const openMs = performance.now() - t0;
    await sleep(3000);
    const idle = await stats(server, true);
    if (idle.openStreams !== STREAMS) throw new Error(`the server holds ${idle.openStreams} open streams, not ${STREAMS}`);

    // Changes at demo speed, each with its sequence number and the time it was stored.
    let seq = 0;
    let batchNo = 0;
    let appending = true;
    const appender = (async () => {
      let due = performance.now();
      while (appending) {
        const changes: Change[] = [];
        const storedAt = Date.now();
        for (let i = 0; i < BATCH; i++) {
          const n = seq++;
          // Each change its own event: a slow reader's merge (per event) cannot fold two into one, so exactness is countable.
          const eventId = String(80_000_000 + n);
          changes.push(
            i % 10 === 9
              ? { eventId, kind: 'score', at: new Date(storedAt), provider: 'simulated', data: { home: 1, away: 0, seq: n, storedAt } }
              : { eventId, kind: 'price', at: new Date(storedAt), provider: 'simulated', data: { items: [{ id: `${eventId}-1`, price: 2.05, isAvailable: true }], seq: n, storedAt } },
          );
        }
        await appendChanges('bench-stream', `b${batchNo++}`, changes);
        due += EVERY_MS;
        await sleep(Math.max(0, due - performance.now()));
      }
    })();

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const cpu0 = process.cpuUsage();
    process.stderr.write(`lag: ${BATCH} changes every ${EVERY_MS} ms for ${SECONDS} s...\n`);
    const lagStart = await stats(server); // also resets the server's loop histogram
    await sleep(SECONDS * 1000);
    const underLoad = await stats(server);
    const clientCpu = process.cpuUsage(cpu0);
    const lagPhase = { count: tally.lag.count, p50: tally.lag.percentile(50), p99: tally.lag.percentile(99), max: tally.lag.max, clientLoopP99: loop.percentile(99) / 1e6 };

    // Resume: random disconnects while changes keep flowing, spread so the pauses overlap.
    process.stderr.write(`resume: ${DISCONNECTS} random disconnects, pauses up to ${PAUSE_MS} ms...\n`);
    const resumes: Promise<void>[] = [];
    const victims = new Set<number>();
    for (let i = 0; i < DISCONNECTS; i++) {
      let k = Math.floor(Math.random() * clients.length);
      while (!clients[k].connected || clients[k].lastId === null) k = Math.floor(Math.random() * clients.length);
      const c = clients[k];
      victims.add(k);
      c.abort();
      resumes.push(sleep(Math.random() * PAUSE_MS).then(() => c.resume()));
      await sleep(Math.random() * 400);
    }
    await Promise.all(resumes);
    await sleep(2 * EVERY_MS);
    appending = false;
    await appender;
    const total = seq;
    // Every stream catches up with the last change (or the wait ends and the shortfall counts as lost).
    const deadline = Date.now() + 30000;
    while (clients.some((c) => c.expected < total) && Date.now() < deadline) await sleep(200);
    const behind = clients.filter((c) => c.expected < total);
    for (const c of behind) tally.lost += total - c.expected;

    // The feed read back: every change once, in the appender's order; each resume's id is its change's.
    const feedIds: string[] = [];
    let after: string | null = null;
    for (;;) {
      const { entries } = await readChanges(after, 1000);
      for (const e of entries) {
        const d = e.change.data;
        if (!isRecord(d) || d.seq !== feedIds.length) throw new Error(`the feed holds entry ${e.id} out of the appender's order`);
        feedIds.push(e.id);
      }
      if (entries.length < 1000) break;
      after = entries[entries.length - 1].id;
    }
    if (feedIds.length !== total) throw new Error(`the feed holds ${feedIds.length} changes, ${total} appended`);
    let badResumeIds = 0;
    for (const c of clients) for (const r of c.resumedFrom) if (feedIds[r.seq] !== r.id) badResumeIds++;
    const after2 = await stats(server);
    const reconnected = clients.reduce((n, c) => n + c.resumedFrom.length, 0);

    const row = (what: string, figure: string, target = '') => `${what.padEnd(52)} ${figure.padEnd(40)} ${target}`;
    const perStream = (idle.rss - before.rss) / STREAMS;
    const heapPerStream = (idle.heapUsed - before.heapUsed) / STREAMS;
    const lagMet = lagPhase.p99 < 1000;
    const resumeMet = tally.lost === 0 && tally.duplicated === 0 && badResumeIds === 0 && tally.withoutId === 0 && tally.unexpected === 0;
    const out = [
      '',
      `bench:stream, ${new Date().toISOString()}: Node ${process.version}, ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; MongoDB: ${local.mongoKind}; Redis: ${local.redisKind}`,
      `one web process (createApp), ${STREAMS} streams over ${KEYS} live keys (STREAM_MAX_CONNECTIONS_LIVE=${2 * perKey} for the run), STREAM_POLL_MS default; ${BATCH} changes every ${EVERY_MS} ms (${((BATCH * 1000) / EVERY_MS).toFixed(0)}/s), every stream on every channel`,
      '',
      row('what', 'figure', 'target'),
      row('streams open (server count) / time to open them', `${idle.openStreams} / ${(openMs / 1000).toFixed(1)} s`, `${STREAMS}: ${idle.openStreams === STREAMS ? 'met' : 'NOT met'}`),
      row('web RSS before / with the streams idle', `${mb(before.rss)} / ${mb(idle.rss)}`),
      row('memory per idle stream (RSS delta / streams)', `${kb(perStream)} (heap ${kb(heapPerStream)})`, 'stated'),
      row('web RSS while delivering', `${mb(underLoad.rss)}; end of run ${mb(after2.rss)}`),
      row(
        `lag stored -> received, ${lagPhase.count.toLocaleString('en')} messages`,
        `p50 ${lagPhase.p50} ms, p99 ${lagPhase.p99} ms, max ${Math.round(lagPhase.max)} ms`,
        `p99 < 1 s: ${lagMet ? 'met' : `NOT met (${(lagPhase.p99 / 1000).toFixed(1)}x)`}`,
      ),
      row('event loop p99: web process / this client', `${underLoad.loopP99Ms} ms (max ${underLoad.loopMaxMs}) / ${lagPhase.clientLoopP99.toFixed(0)} ms`),
      row(
        `CPU in the ${SECONDS} s of the lag phase: web process / this client`,
        `${((underLoad.cpuMs - lagStart.cpuMs) / 1000).toFixed(1)} s / ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s`,
      ),
      row('lag over the whole run (resumed backlogs included)', `p50 ${tally.lag.percentile(50)} ms, p99 ${tally.lag.percentile(99)} ms, max ${Math.round(tally.lag.max)} ms`),
      row(
        `resume: ${reconnected} reconnects of ${victims.size} streams, ${total.toLocaleString('en')} changes`,
        `${tally.lost} lost, ${tally.duplicated} duplicated, ${badResumeIds} wrong resume ids`,
        `0 and 0: ${resumeMet ? 'met' : 'NOT met'}`,
      ),
      row('messages without id / conflated / unexpected', `${tally.withoutId} / ${tally.conflated} / ${tally.unexpected}`),
      ...(tally.unexpected ? [`first unexpected message: ${tally.firstUnexpected}`] : []),
      '',
    ];
    process.stdout.write(out.join('\n'));
  } finally {
    for (const c of clients) c.abort();
    if (server && server.exitCode === null) {
      const s = server;
      const exited = new Promise((r) => s.once('exit', r));
      s.kill('SIGTERM');
      await exited;
    }
    await dropRunData();
    await disconnectMongo();
    await closeAllRedis();
    await local.stop();
  }
}

main().catch((err) => failEntry('bench:stream failed', err));
