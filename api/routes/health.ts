import { Router } from 'express';
import { queueFor } from '../../jobs/client';
import { ALL_QUEUES } from '../../jobs';
import { pingMongo } from '../../shared/db/mongo';
import { redis } from '../../shared/db/redis';
import { ProviderState } from '../../shared/models';
import { ERRORS } from '../errors';
import { validateQuery } from '../middleware/validate';

const withTimeout = <T>(p: Promise<T>, ms = 2000) =>
  Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`timed out after ${ms} ms`)), ms).unref())]);

async function check<T>(fn: () => Promise<T>): Promise<{ status: 'up'; value: T } | { status: 'down'; error: string }> {
  try {
    return { status: 'up', value: await withTimeout(fn()) };
  } catch (err) {
    return { status: 'down', error: (err as Error).message };
  }
}

/**
 * Free and keyless. 200 when MongoDB and Redis answer, 503 (error shape plus the same details)
 * when either does not, so load balancers and humans read the same document.
 */
export function healthRouter(): Router {
  const router = Router();
  router.get('/health', validateQuery({ type: 'object', properties: {} }), async (_req, res) => {
    const [mongo, red] = await Promise.all([
      check(pingMongo),
      check(async () => {
        const t = Date.now();
        await redis().ping();
        return Date.now() - t;
      }),
    ]);
    const queues = red.status === 'up'
      ? Object.fromEntries(
          await Promise.all(
            ALL_QUEUES.map(async (q) => [q.name, await withTimeout(queueFor(q).getJobCounts('waiting', 'active', 'delayed', 'failed')).catch(() => null)] as const),
          ),
        )
      : {};
    const providers = mongo.status === 'up' ? await ProviderState.find().lean().catch(() => []) : [];
    const lastIngestAt = providers.reduce<Date | null>((max, p) => (p.lastSuccessAt && (!max || p.lastSuccessAt > max) ? p.lastSuccessAt : max), null);
    const ok = mongo.status === 'up' && red.status === 'up';
    const body = {
      status: ok ? 'ok' : 'degraded',
      timestamp: new Date().toISOString(),
      mongodb: mongo.status === 'up' ? { status: 'up', latencyMs: mongo.value } : mongo,
      redis: red.status === 'up' ? { status: 'up', latencyMs: red.value } : red,
      queues,
      lastIngestAt: lastIngestAt?.toISOString() ?? null,
      providers: providers.map((p) => ({
        name: p._id,
        breaker: p.breaker,
        stale: p.stale,
        lastAttemptAt: p.lastAttemptAt,
        lastSuccessAt: p.lastSuccessAt,
        lastError: p.lastError,
        quota: p.quota ?? null,
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
