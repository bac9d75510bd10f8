/**
 * Overhead of metering: autocannon against GET /v2/matches served by the same handler (a body
 * of about 20 KB, the size of a page of events) through the production pipeline with and without
 * the metering middleware, for a live key (key check, rate limits and the debit in one Redis
 * script; the charge left for the ledger consumer) and a test key (key check, rate limits and the
 * daily cap). Real Redis and MongoDB/FerretDB, found or
 * started like `npm start` does. The three variants run interleaved for several rounds and each
 * figure is the median over the rounds, so load from elsewhere on the machine hits all of them
 * alike. Prints req/s, p50 and p99 latency and the ratio to unmetered.
 * Usage: npm run bench:metering [-- <connections> <seconds> <rounds>]
 */
import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express, { type Express } from 'express';
import mongoose from 'mongoose';
import { errorHandler, notFoundRoute } from '../api/middleware/errors';
import { meterAccess, meterDebit } from '../api/middleware/metering';
import { requestLog } from '../api/middleware/requestLog';
import { addCredits, createAccount, createKey } from '../shared/app/billing/accounts';
import { balanceOf } from '../shared/platform/billing/credits';
import { startLedgerConsumer } from '../shared/platform/billing/ledgerConsumer';
import { checkLedger } from '../shared/app/billing/ledgerCheck';
import { drainMetering } from '../shared/app/billing/metering';
import { processContext } from '../shared/app/processContext';
import { setEnvForChildren } from '../shared/platform/config';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { closeAllRedis } from '../shared/platform/db/redis';
import { startLocalServices } from '../scripts/services';

const CONNECTIONS = Number(process.argv[2] ?? 100);
const SECONDS = Number(process.argv[3] ?? 10);
const ROUNDS = Number(process.argv[4] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const BODY = {
  data: Array.from({ length: 40 }, (_, i) => ({
    id: String(1000 + i),
    status: 'upcoming',
    homeTeam: { id: i, name: 'Home Team FC' },
    awayTeam: { id: i + 1, name: 'Away Team United' },
    markets: Array.from({ length: 4 }, (_, m) => ({
      id: `${i}-${m}`,
      betTypeSysname: 'SOCCER_MATCH_RESULT',
      betItems: [
        { code: '1', price: 2.1 },
        { code: 'X', price: 3.3 },
        { code: '2', price: 3.6 },
      ],
    })),
  })),
  count: 40,
};

function app(metered: boolean): Express {
  const a = express();
  a.disable('x-powered-by');
  a.set('etag', false);
  a.set('query parser', 'simple');
  a.use(requestLog());
  if (metered) a.use('/v2', meterAccess(processContext()));
  a.get('/v2/matches', ...(metered ? [meterDebit()] : []), (_req, res) => void res.json(BODY));
  a.use(notFoundRoute);
  a.use(errorHandler);
  return a;
}

async function run(label: string, url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const non2xx = r.non2xx + r.errors;
  return { label, reqPerSec: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx };
}

async function main() {
  const local = await startLocalServices();
  setEnvForChildren({
    ...local.env,
    MONGODB_DB: `bench_metering_${process.pid}`,
    REDIS_PREFIX: `bench-${process.pid}`,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_LIVE_RPS: '1000000',
    RATE_LIMIT_TEST_RPS: '1000000',
    // The test key's path is measured as it was: no daily cap, no snapshots.
    TEST_KEY_DAILY_REQUESTS: '100000000',
    TEST_KEY_SNAPSHOT_S: '0',
  });
  try {
    await connectMongo();
    const account = await createAccount(processContext(), { name: 'bench' });
    for (let i = 0; i < 3; i++) await addCredits(processContext(), { accountId: account.id, packageCredits: 2000000 });
    const live = await createKey(processContext(), { accountId: account.id, name: 'bench live', mode: 'live' });
    const test = await createKey(processContext(), { accountId: account.id, name: 'bench test', mode: 'test' });
    const servers = [app(false), app(true)].map((a) => a.listen(0, '127.0.0.1'));
    await Promise.all(servers.map((s) => new Promise((r) => s.once('listening', r))));
    const [plain, meteredUrl] = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/v2/matches`);
    process.stderr.write(`[bench] ${local.mongoKind}; ${CONNECTIONS} connections, ${SECONDS} s each\n`);
    const before = await balanceOf(account.id);
    const consumer = startLedgerConsumer();
    const variants: [string, string, Record<string, string>][] = [
      ['unmetered', plain, {}],
      ['metered, test key', meteredUrl, { Authorization: `Bearer ${test.key}` }],
      ['metered, live key', meteredUrl, { Authorization: `Bearer ${live.key}` }],
    ];
    const samples = new Map<string, Awaited<ReturnType<typeof run>>[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, url, headers] of variants) {
        const r = await run(label, url, headers);
        samples.set(label, [...(samples.get(label) ?? []), r]);
        process.stderr.write(`[bench] round ${round + 1} ${label}: ${r.reqPerSec} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms\n`);
      }
    }
    const rows = variants.map(([label]) => {
      const xs = samples.get(label)!;
      return { label, reqPerSec: median(xs.map((x) => x.reqPerSec)), p50: median(xs.map((x) => x.p50)), p99: median(xs.map((x) => x.p99)), non2xx: xs.reduce((n, x) => n + x.non2xx, 0) };
    });
    await drainMetering();
    await consumer.drained(120000);
    await consumer.stop();
    const spent = before - (await balanceOf(account.id));
    const base = rows[0].reqPerSec;
    console.log(`\nGET /v2/matches (~${Math.round(JSON.stringify(BODY).length / 1024)} KB body), ${CONNECTIONS} connections, median of ${ROUNDS} interleaved ${SECONDS} s runs, ${local.mongoKind}`);
    console.log('| path | req/s | p50 ms | p99 ms | ratio to unmetered | non-2xx |');
    console.log('|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.label} | ${r.reqPerSec} | ${r.p50} | ${r.p99} | ${(r.reqPerSec / base).toFixed(2)} | ${r.non2xx} |`);
    const ledger = await checkLedger(processContext());
    console.log(`\nlive-key credits debited: ${spent}; ledger check: ${ledger.problems.length === 0 ? 'OK' : JSON.stringify(ledger.problems)}`);
    servers.forEach((s) => s.close());
    await mongoose.connection.db!.dropDatabase();
  } finally {
    await disconnectMongo();
    await closeAllRedis();
    await local.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
