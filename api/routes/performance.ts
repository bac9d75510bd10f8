import { worldNow } from '../../shared/platform/clock/worldClock';
import { dailyBreakdown, performanceReport, windowDays } from '../../shared/domain/grading';
import { loadRollups } from '../../shared/app/settlement/rollups';
import type { AppContext } from '../../shared/app/context';
import { MAX_PERFORMANCE_DAYS, performanceDailyQuery, performanceQuery, performanceResponses } from '../schemas/performance';
import { route } from './route';
import type { Answer, Route, RouteContext, Infer } from './spec';

const today = () => worldNow().toISOString().slice(0, 10);

/** The rollups of the window and when settlement last changed any of them. */
async function windowRollups(ctx: AppContext, days: number) {
  const rollups = await loadRollups(ctx, { days: windowDays(today(), days) });
  const last = rollups.reduce<Date | null>((m, r) => (r.updatedAt && (!m || r.updatedAt > m) ? r.updatedAt : m), null);
  return { rollups, lastUpdated: last ?? new Date() };
}

type Context<K extends keyof typeof performanceResponses> = RouteContext<{ days: number }, unknown, Infer<(typeof performanceResponses)[K]>>;

async function performance({ query: { days }, json, app }: Context<'performance'>): Promise<Answer<Infer<(typeof performanceResponses)['performance']>>> {
  const { rollups, lastUpdated } = await windowRollups(app, days);
  return json(performanceReport(rollups, { days, today: today(), now: lastUpdated }));
}

async function performanceDaily({ query: { days }, json, app }: Context<'performanceDaily'>): Promise<Answer<Infer<(typeof performanceResponses)['performanceDaily']>>> {
  const { rollups, lastUpdated } = await windowRollups(app, days);
  const rows = dailyBreakdown(rollups, { days, today: today() });
  return json({ period: `${days} days`, days: rows, profit: rows.at(-1)?.cumulativeProfit ?? 0, lastUpdated: lastUpdated.toISOString() });
}

/**
 * The contract's performance metrics from the per-day rollups settlement maintains: shape B plus shape A's
 * recommendations block, and the daily breakdown with cumulative profit.
 */
export function performanceRoutes(): Route[] {
  return [
    route({
      path: '/ai/performance',
      price: '/v2/ai/performance',
      operationId: 'performance',
      summary: 'Performance of the recommendations',
      description:
        `Settled recommendations of the last \`days\` days (UTC, 1 to ${MAX_PERFORMANCE_DAYS}, default 30): contract shape B (overall, byConfidence as an array, lastUpdated) ` +
        "plus shape A's recommendations block. Win rate = wins / (wins + losses), pushes excluded; roi and profit on flat 1-unit stakes.",
      tag: 'AI',
      auth: 'key',
      query: performanceQuery,
      response: performanceResponses.performance,
      handler: performance,
    }),
    route({
      path: '/ai/performance/daily',
      price: '/v2/ai/performance/daily',
      operationId: 'performanceDaily',
      summary: 'Daily performance with cumulative profit',
      description: 'Every day of the window, oldest first (quiet days included), with staked, returned, profit and cumulative profit in units.',
      tag: 'AI',
      auth: 'key',
      query: performanceDailyQuery,
      response: performanceResponses.performanceDaily,
      handler: performanceDaily,
    }),
  ];
}
