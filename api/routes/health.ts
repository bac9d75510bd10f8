import { Router } from 'express';
import { queueFor } from '../../jobs/client';
import { ALL_QUEUES } from '../../jobs';
import { pingMongo } from '../../shared/db/mongo';
import { redis } from '../../shared/db/redis';
import { toWorldTime } from '../../shared/clock/worldClock';
import { getConfig } from '../../shared/config';
import { pipelineStatus } from '../../shared/health/status';
import { countEventsMatching } from '../../shared/db/repositories/events';
import { findAllProviderStates } from '../../shared/db/repositories/providers';
import { SETTLEMENT_EVENT_FILTER } from '../../shared/settlement/state';
import { maxSettlementDelayMs } from '../../shared/settlement/sweep';
import { ERRORS } from '../errors';
import { validateQuery } from '../middleware/validate';
import { recent } from '../../shared/cache/recent';

const withTimeout = <T>(p: Promise<T>, ms = 2000) => Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`timed out after ${ms} ms`)), ms).unref())]);

async function check<T>(fn: () => Promise<T>): Promise<{ status: 'up'; value: T } | { status: 'down'; error: string }> {
  try {
    return { status: 'up', value: await withTimeout(fn()) };
  } catch (err) {
    return { status: 'down', error: (err as Error).message };
  }
}

/** Age of the oldest job waiting in a queue (waiting, not delayed), null when none waits. */
async function oldestWaitingAgeMs(q: (typeof ALL_QUEUES)[number], now: number): Promise<number | null> {
  const [oldest] = await queueFor(q).getJobs(['waiting'], 0, 0, true);
  return oldest ? Math.max(0, now - oldest.timestamp) : null;
}

/**
 * Ended events with no settlement a minute after it was due (looking back a day of real time).
 * Due after the end, or after ingest first stored the event when it was already over (a fresh
 * start meets events that ended hours ago: their settlement is due from then, not from their end).
 */
const settlementOverdue = recent(15_000, (_: 'all') => countOverdue(Date.now()));

/** Kept 15 s when slow to count: on FerretDB the count reads every ended event whole (0.7 s at 300 events). */
async function countOverdue(now: number): Promise<number> {
  const dueBefore = now - maxSettlementDelayMs() - 60_000;
  return countEventsMatching({
    ...SETTLEMENT_EVENT_FILTER,
    settledVersion: null,
    createdAt: { $lt: new Date(dueBefore) },
    endedAt: { $lt: new Date(toWorldTime(dueBefore)), $gte: new Date(toWorldTime(dueBefore - 86_400_000)) },
  });
}

/**
 * Free and keyless. 200 when MongoDB and Redis answer, 503 (error shape plus the same details)
 * when either does not, so load balancers and humans read the same document.
 */
export function healthRouter(): Router {
  const router = Router();
  const startedAt = Date.now();
  router.get('/health', validateQuery({ type: 'object', properties: {} }), async (_req, res) => {
    const [mongo, red] = await Promise.all([
      check(pingMongo),
      check(async () => {
        const t = Date.now();
        await redis().ping();
        return Date.now() - t;
      }),
    ]);
    const now = Date.now();
    const queues: Record<string, unknown> =
      red.status === 'up'
        ? Object.fromEntries(
            await Promise.all(
              ALL_QUEUES.map(async (q) => {
                const read = async () => ({ ...(await queueFor(q).getJobCounts('waiting', 'active', 'delayed', 'failed')), oldestWaitingAgeMs: await oldestWaitingAgeMs(q, now) });
                return [q.name, await withTimeout(read()).catch(() => null)] as const;
              }),
            ),
          )
        : {};
    const providers = mongo.status === 'up' ? await findAllProviderStates().catch(() => []) : [];
    const lastIngestAt = providers.reduce<Date | null>((max, p) => (p.lastSuccessAt && (!max || p.lastSuccessAt > max) ? p.lastSuccessAt : max), null);
    const overdue = mongo.status === 'up' ? await withTimeout(settlementOverdue('all')).catch(() => null) : null;
    const cfg = getConfig();
    const pipeline = pipelineStatus({
      now,
      pollIntervalMs: cfg.POLL_INTERVAL_MS,
      uptimeMs: now - startedAt,
      providers: cfg.PROVIDERS.map((name) => ({ name, lastSuccessAt: providers.find((p) => p._id === name)?.lastSuccessAt?.getTime() ?? null })),
      oldestAnalysisWaitingMs: (queues.ai as { oldestWaitingAgeMs?: number | null } | null)?.oldestWaitingAgeMs ?? null,
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
        quota: (p.quota as Record<string, unknown> | null | undefined) ?? null,
      })),
    };
    if (ok) res.json(body);
    else {
      const down = [mongo.status === 'down' && 'mongodb', red.status === 'down' && 'redis'].filter(Boolean).join(', ');
      res.status(503).json({ statusCode: 503, message: `Service degraded: ${down} down`, error: ERRORS.UNAVAILABLE.error, ...body });
    }
  });
  return router;
}
