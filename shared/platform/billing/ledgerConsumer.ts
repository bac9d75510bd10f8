import { randomBytes } from 'node:crypto';
import { createRedis, redis, type RedisClient } from '../db/redis';
import { findLedgerRefsPresent } from '../db/repositories/ledger';
import { errorMessage } from '../errorFields';
import { childLogger } from '../logger';
import { creditsDebited, creditsUncharged } from '../metrics/registry';
import { chargeStreamKey } from './credits';
import { apply } from './ledger';

/**
 * Writes the charges web processes append to the Redis stream into the MongoDB ledger, in
 * batches (one group-committed insertMany per account per batch), then acknowledges and deletes
 * them. A consumer group spreads the stream over every running consumer; entries a dead consumer
 * read but never acknowledged are claimed by another after `claimIdleMs`. Replays are harmless:
 * every charge carries its ref (`debit:<ref>`, unique in the ledger), so a charge written before
 * the crash is found a duplicate and acknowledged, never written twice.
 */

const GROUP = 'ledger';
const log = () => childLogger({ component: 'ledger-consumer' });

type StreamEntry = [id: string, fields: string[]];

export interface LedgerConsumerOptions {
  /** Entries read at most per batch. */
  batch?: number;
  /** How long an entry read by another consumer stays unacknowledged before it is taken over. */
  claimIdleMs?: number;
  /** How long one read waits for new entries. */
  blockMs?: number;
}

export interface LedgerConsumer {
  stop(): Promise<void>;
  /** Resolves once the stream holds nothing read or unread (tests, benches). */
  drained(timeoutMs?: number): Promise<void>;
}

/** A reply's list (an empty one when the reply is none). */
const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** A stream's entries as Redis returns them ([id, fields]); an entry deleted since it was read has no fields and is left out. */
function entriesOf(list: unknown): StreamEntry[] {
  return items(list).flatMap((e): StreamEntry[] => {
    const [id, fields] = items(e);
    return typeof id === 'string' && isStrings(fields) ? [[id, fields]] : [];
  });
}

function fieldsOf(raw: string[]): Record<string, string> {
  const o: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) o[raw[i]] = raw[i + 1];
  return o;
}

/**
 * Writes one batch; resolves with the ids that are in the ledger now (written or found written).
 * `replayed`: read before by a consumer that may have written some (looked up first, so a batch
 * mostly written is not re-planned one duplicate at a time).
 */
export async function writeCharges(entries: StreamEntry[], replayed = false): Promise<string[]> {
  const done: string[] = [];
  const parsed = entries.map(([id, raw]) => [id, fieldsOf(raw)] as const);
  const present = replayed ? await findLedgerRefsPresent(parsed.map(([, f]) => `debit:${f.ref}`)) : new Set<string>();
  await Promise.all(
    parsed.map(async ([id, f]) => {
      if (present.has(`debit:${f.ref}`)) return void done.push(id);
      const cost = Number(f.cost);
      // A charge is one request, or (`requests`) a batch of like requests settled together.
      const requests = f.requests ? Number(f.requests) : 1;
      const r = await apply(f.account, { ref: `debit:${f.ref}`, kind: 'debit', delta: -cost, requests, endpoint: f.endpoint, keyId: f.key, at: new Date(Number(f.at)) });
      if (r.status === 'applied') creditsDebited.inc({ endpoint: f.endpoint }, cost);
      else if (r.status === 'insufficient') {
        // Served on a balance seeded ahead of the ledger (after a Redis loss): never charged.
        creditsUncharged.inc({ endpoint: f.endpoint }, cost);
        log().warn({ accountId: f.account, ref: f.ref, cost }, 'a served request could not be charged: the ledger balance is below it');
      }
      done.push(id);
    }),
  );
  return done;
}

export function startLedgerConsumer(options: LedgerConsumerOptions = {}): LedgerConsumer {
  const batch = options.batch ?? 500;
  const claimIdleMs = options.claimIdleMs ?? 30000;
  const blockMs = options.blockMs ?? 1000;
  const name = `c-${randomBytes(6).toString('hex')}`;
  const conn: RedisClient = createRedis('ledger-consumer');
  const stream = chargeStreamKey();
  let running = true;
  // Said by drained() when it gives up: what kept the charges in the stream.
  let lastError: string | undefined;

  const ensureGroup = () =>
    conn.xgroup('CREATE', stream, GROUP, '0', 'MKSTREAM').catch((err: Error) => {
      if (!/BUSYGROUP/.test(err.message)) throw err;
    });

  async function next(): Promise<{ entries: StreamEntry[]; replayed: boolean }> {
    // Entries another consumer read and never acknowledged (it died, or its write failed).
    // XAUTOCLAIM answers [next cursor, entries, deleted ids].
    const stale = entriesOf(items(await conn.xautoclaim(stream, GROUP, name, claimIdleMs, '0-0', 'COUNT', batch))[1]);
    if (stale.length) return { entries: stale, replayed: true };
    // XREADGROUP answers [[stream, entries]], or none after its block.
    const r = await conn.xreadgroup('GROUP', GROUP, name, 'COUNT', batch, 'BLOCK', blockMs, 'STREAMS', stream, '>');
    return { entries: entriesOf(items(items(r)[0])[1]), replayed: false };
  }

  const loop = (async () => {
    await ensureGroup().catch(() => undefined);
    let failures = 0;
    while (running) {
      try {
        const { entries, replayed } = await next();
        if (entries.length === 0) continue;
        const done = await writeCharges(entries, replayed);
        await conn.xack(stream, GROUP, ...done);
        await conn.xdel(stream, ...done);
        failures = 0;
        lastError = undefined;
      } catch (err) {
        const message = errorMessage(err);
        lastError = message;
        // Redis restarted empty: the group is gone with the stream.
        if (/NOGROUP/.test(message)) await ensureGroup().catch(() => undefined);
        else log().error({ err: message }, 'writing charges to the ledger failed; they stay in the stream');
        failures++;
        await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** Math.min(failures, 6))));
      }
    }
  })();

  return {
    async stop() {
      running = false;
      await loop;
      await conn.quit().catch(() => conn.disconnect());
    },
    async drained(timeoutMs = 30000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        // Acknowledged entries are deleted: an empty stream is a written one.
        const len = await redis().xlen(stream);
        if (len === 0) return;
        if (Date.now() > until) throw new Error(`the ledger consumer still has ${len} charges after ${timeoutMs} ms${lastError ? ` (last error: ${lastError})` : ' (no error: still writing)'}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
