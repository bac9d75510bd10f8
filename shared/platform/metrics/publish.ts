import { hostname } from 'node:os';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { getConfig } from '../config';
import { key, redis, tag } from '../db/redis';
import { childLogger } from '../logger';
import { processRegistry, setMetricsProcess } from './registry';
import { errorMessage } from '../errorFields';

/**
 * Each process publishes its registry to Redis: one key per process instance, rewritten every
 * METRICS_PUBLISH_MS with a TTL of three periods, so a process that dies drops out within that
 * time, plus a set indexing the keys (so the reader needs no SCAN over a shared Redis).
 * One publisher per OS process: `npm start` runs every part in one process and publishes once.
 */

export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

export interface Snapshot {
  key: string;
  process: string;
  at: number;
  metrics: MetricsJson;
}

// One hash tag for the index and the snapshots: they are written and read together.
const indexKey = () => key(tag('metrics'), 'instances');

let running: { key: string; stop: () => Promise<void> } | undefined;

/** The Redis key of this process's snapshot while its publisher runs (the reader skips it: it reads this process live). */
export function ownSnapshotKey(): string | undefined {
  return running?.key;
}

export async function publishSnapshot(instanceKey: string, processName: string, ttlMs: number): Promise<void> {
  const body: Omit<Snapshot, 'key'> = { process: processName, at: Date.now(), metrics: await processRegistry.getMetricsAsJSON() };
  await redis().multi().set(instanceKey, JSON.stringify(body), 'PX', ttlMs).sadd(indexKey(), instanceKey).exec();
}

/** Starts publishing under `processName`; stopping removes the snapshot at once. */
export async function startMetricsPublisher(processName: string): Promise<{ name: string; stop: () => Promise<void> }> {
  if (running) throw new Error('a metrics publisher already runs in this process');
  const periodMs = getConfig().METRICS_PUBLISH_MS;
  const instanceKey = key(tag('metrics'), processName, `${hostname()}-${process.pid}`);
  const log = childLogger({ component: 'metrics' });
  setMetricsProcess(processName);
  const publish = () => publishSnapshot(instanceKey, processName, periodMs * 3).catch((err) => log.warn({ err: errorMessage(err) }, 'metrics publish failed'));
  await publish();
  const timer = setInterval(() => void publish(), periodMs);
  timer.unref();
  const stop = async () => {
    clearInterval(timer);
    running = undefined;
    await redis()
      .multi()
      .del(instanceKey)
      .srem(indexKey(), instanceKey)
      .exec()
      .catch(() => undefined); // the TTL removes it anyway
  };
  running = { key: instanceKey, stop };
  return { name: 'metrics-publisher', stop };
}

/** Every live snapshot; index entries whose key expired are pruned on the way. */
export async function readSnapshots(): Promise<Snapshot[]> {
  const keys = await redis().smembers(indexKey());
  if (keys.length === 0) return [];
  const bodies = await redis().mget(...keys);
  const expired = keys.filter((_, i) => bodies[i] === null);
  if (expired.length) await redis().srem(indexKey(), ...expired);
  const out: Snapshot[] = [];
  bodies.forEach((b, i) => {
    if (b === null) return;
    try {
      out.push({ key: keys[i], ...(JSON.parse(b) as Omit<Snapshot, 'key'>) });
    } catch {
      // a foreign or truncated value: not a snapshot
    }
  });
  return out;
}
