import { queueFor } from '../../shared/platform/queues/client';
import { ALL_QUEUES } from '../../jobs';
import { pingMongo } from '../../shared/platform/db/mongo';
import { redis } from '../../shared/platform/db/redis';
import { toWorldTime } from '../../shared/platform/clock/worldClock';
import { pipelineStatus } from '../../shared/domain/health/status';
import { countSettlementsOverdue } from '../../shared/platform/db/repositories/settlementEvents';
import { findAllProviderStates } from '../../shared/platform/db/repositories/providers';
import { maxSettlementDelayMs } from '../../shared/app/settlement/sweep';
import { ERRORS } from '../errors';
import { emptyQuery } from '../schemas/queries';
import { responses } from '../schemas/responses';
import { route } from './route';
import type { Route } from './spec';
import { recent } from '../../shared/platform/cache/recent';

/** A provider's stored quota (mixed): whatever it saved, or null. */
const quotaOf = (p: { quota?: unknown }): unknown => p.quota ?? null;

const withTimeout = <T>(p: Promise<T>, ms = 2000) => Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`timed out after ${ms} ms`)), ms).unref())]);

async function check<T>(fn: () => Promise<T>): Promise<{ status: 'up'; value: T } | { status: 'down'; error: string }> {
  try {
    return { status: 'up', value: await withTimeout(fn()) };
  } catch (err) {
    return { status: 'down', error: err instanceof Error ? err.message : String(err) };
  }
}

/** Age of the oldest job waiting in a queue (waiting, not delayed), null when none waits. */
async function oldestWaitingAgeMs(q: (typeof ALL_QUEUES)[number], now: number): Promise<number | null> {
  const [oldest] = await queueFor(q).getJobs(['waiting'], 0, 0, true);
  return oldest ? Math.max(0, now - oldest.timestamp) : null;
}

/** A queue's job counts and the age of its oldest waiting job. */
async function queueState(q: (typeof ALL_QUEUES)[number], now: number) {
  return { ...(await queueFor(q).getJobCounts('waiting', 'active', 'delayed', 'failed')), oldestWaitingAgeMs: await oldestWaitingAgeMs(q, now) };
}

/**
 * Ended events with no settlement a minute after it was due (looking back a day of real time).
 * Due after the end, or after ingest first stored the event when it was already over (a fresh
 * start meets events that ended hours ago: their settlement is due from then, not from their end).
 */
const settlementOverdue = recent(15_000, (delayMs: number) => countOverdue(Date.now(), delayMs), 0);

/**
 * Kept 15 s, and recounted in the background after that (the previous figure served meanwhile): on
 * FerretDB the count reads every ended event whole (0.1 to 0.7 s), and a health check that waits
 * for it is slow exactly when the store is busy.
 */
async function countOverdue(now: number, delayMs: number): Promise<number> {
  const dueBefore = now - delayMs - 60_000;
  return countSettlementsOverdue({ createdBefore: new Date(dueBefore), endedFrom: new Date(toWorldTime(dueBefore - 86_400_000)), endedBefore: new Date(toWorldTime(dueBefore)) });
}

/**
 * Free and keyless. 200 when MongoDB and Redis answer, 503 (error shape plus the same details)
 * when either does not, so load balancers and humans read the same document.
 */
export function healthRoute(): Route {
  const startedAt = Date.now();
  return route({
    path: '/health',
    price: '/v2/health',
    operationId: 'health',
    summary: 'Health check',
    description: 'MongoDB and Redis status with latency, job counts per queue, last ingest time and provider breaker states. 503 (error shape plus the same details) when MongoDB or Redis is down.',
    tag: 'System',
    auth: 'none',
    query: emptyQuery,
    response: responses.health,
    handler: async ({ json, app }) => {
      const cfg = app.config;
      const [mongo, red] = await Promise.all([
        check(pingMongo),
        check(async () => {
          const t = Date.now();
          await redis().ping();
          return Date.now() - t;
        }),
      ]);
      const now = Date.now();
      const counted = red.status === 'up' ? await Promise.all(ALL_QUEUES.map(async (q) => [q.name, await withTimeout(queueState(q, now)).catch(() => null)] as const)) : [];
      const queues = Object.fromEntries(counted);
      const providers = mongo.status === 'up' ? await findAllProviderStates().catch(() => []) : [];
      const lastIngestAt = providers.reduce<Date | null>((max, p) => (p.lastSuccessAt && (!max || p.lastSuccessAt > max) ? p.lastSuccessAt : max), null);
      const overdue = mongo.status === 'up' ? await withTimeout(settlementOverdue(maxSettlementDelayMs(cfg))).catch(() => null) : null;
      const pipeline = pipelineStatus({
        now,
        pollIntervalMs: cfg.POLL_INTERVAL_MS,
        uptimeMs: now - startedAt,
        providers: cfg.PROVIDERS.map((name) => ({ name, lastSuccessAt: providers.find((p) => p._id === name)?.lastSuccessAt?.getTime() ?? null })),
        oldestAnalysisWaitingMs: counted.find(([name]) => name === 'ai')?.[1]?.oldestWaitingAgeMs ?? null,
        settlementOverdue: overdue ?? 0,
      });
      const ok = mongo.status === 'up' && red.status === 'up';
      const body = {
        status: ok ? pipeline.status : 'degraded',
        reasons: pipeline.reasons,
        timestamp: new Date(now).toISOString(),
        mongodb: mongo.status === 'up' ? { status: 'up', latencyMs: mongo.value } : mongo,
        redis: red.status === 'up' ? { status: 'up', latencyMs: red.value } : red,
        queues,
        lastIngestAt: lastIngestAt?.toISOString() ?? null,
        settlement: { overdue },
        providers: providers.map((p) => ({
          name: p._id,
          breaker: p.breaker,
          stale: p.stale,
          lastAttemptAt: p.lastAttemptAt,
          lastSuccessAt: p.lastSuccessAt,
          lastSuccessAgeMs: p.lastSuccessAt ? now - p.lastSuccessAt.getTime() : null,
          lastError: p.lastError,
          quota: quotaOf(p),
        })),
      };
      if (ok) return json(body);
      const down = [mongo.status === 'down' && 'mongodb', red.status === 'down' && 'redis'].filter(Boolean).join(', ');
      return json({ statusCode: 503, message: `Service degraded: ${down} down`, error: ERRORS.UNAVAILABLE.error, code: ERRORS.UNAVAILABLE.code, ...body }, 503);
    },
  });
}
