import { Router } from 'express';
import { dailyBreakdown, performanceReport, windowDays } from '../../shared/grading';
import { loadRollups } from '../../shared/settlement/rollups';
import { validateQuery, validQuery } from '../middleware/validate';
import { performanceDailyQuery, performanceQuery } from '../schemas/performance';

const today = () => new Date().toISOString().slice(0, 10);

/** The rollups of the window and when settlement last changed any of them. */
async function windowRollups(days: number) {
  const rollups = await loadRollups({ days: windowDays(today(), days) });
  const last = rollups.reduce<Date | null>((m, r) => (r.updatedAt && (!m || r.updatedAt > m) ? r.updatedAt : m), null);
  return { rollups, lastUpdated: last ?? new Date() };
}

/**
 * SPEC performance metrics from the per-day rollups settlement maintains: shape B plus shape A's
 * recommendations block, and the daily breakdown with cumulative profit.
 */
export function performanceRouter(): Router {
  const router = Router();
  router.get('/ai/performance', validateQuery(performanceQuery), async (req, res) => {
    const { days } = validQuery<{ days: number }>(req);
    const { rollups, lastUpdated } = await windowRollups(days);
    res.json(performanceReport(rollups, { days, today: today(), now: lastUpdated }));
  });
  router.get('/ai/performance/daily', validateQuery(performanceDailyQuery), async (req, res) => {
    const { days } = validQuery<{ days: number }>(req);
    const { rollups, lastUpdated } = await windowRollups(days);
    const rows = dailyBreakdown(rollups, { days, today: today() });
    res.json({ period: `${days} days`, days: rows, profit: rows.at(-1)?.cumulativeProfit ?? 0, lastUpdated: lastUpdated.toISOString() });
  });
  return router;
}
