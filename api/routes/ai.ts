import { aiResponses, bettingRecommendationsQuery, featuredPicksQuery, processedInsightsQuery, valueOpportunitiesQuery } from '../schemas/ai';
import { bettingRecommendations, featuredPicks, processedInsights, valueOpportunities } from '../queries/ai';
import { dayOf } from '../../shared/domain/days';
import { zoneKey } from '../queries/filters';
import { route } from './route';
import type { Route } from './spec';

/** The /v2/ai endpoints, mounted and documented like every other route (spec.ts). */
export function aiRoutes(): Route[] {
  return [
    route({
      path: '/ai/featured-picks',
      price: '/v2/ai/featured-picks',
      operationId: 'featuredPicks',
      summary: 'Featured picks',
      description: 'Curated singles and parlays (legs from different events) with total odds, edge and Kelly of the combination, ordered by featuredOrder.',
      tag: 'AI',
      auth: 'key',
      query: featuredPicksQuery,
      response: aiResponses.featuredPicks,
      // "Today" is the client's day: part of the page's key.
      handler: ({ query, cached }) =>
        cached('featured-picks', { ...query, timezone: zoneKey(query.timezone), today: dayOf(new Date(), query.timezone) }, ['ai'], () => featuredPicks(query), { clockInKey: true }),
    }),
    route({
      path: '/ai/processed-insights',
      price: '/v2/ai/processed-insights',
      operationId: 'processedInsights',
      summary: 'Processed insights',
      description: 'Per-event market efficiency score (0-100), value opportunities, risk factors and notes.',
      tag: 'AI',
      auth: 'key',
      query: processedInsightsQuery,
      lists: ['teamNames', 'status'],
      response: aiResponses.processedInsights,
      handler: ({ query, cached }) => cached('processed-insights', query, ['events', 'ai'], () => processedInsights(query)),
    }),
    route({
      path: '/ai/value-opportunities',
      price: '/v2/ai/value-opportunities',
      operationId: 'valueOpportunities',
      summary: 'Value opportunities',
      description: 'Current recommendations of events still to start with an edge of at least minEdge, with a summary.',
      tag: 'AI',
      auth: 'key',
      query: valueOpportunitiesQuery,
      response: aiResponses.valueOpportunities,
      handler: ({ query, cached, app }) => cached('value-opportunities', query, ['events', 'ai'], () => valueOpportunities(query, app.config.AI_MIN_EDGE)),
    }),
    route({
      path: '/ai/betting-recommendations',
      price: '/v2/ai/betting-recommendations',
      operationId: 'bettingRecommendations',
      summary: 'Betting recommendations',
      description: 'Every recommendation, newest first, with its settlement once graded; filters settled, result, eventId, confidence; paged.',
      tag: 'AI',
      auth: 'key',
      query: bettingRecommendationsQuery,
      response: aiResponses.bettingRecommendations,
      handler: ({ query, cached }) => cached('betting-recommendations', query, ['ai'], () => bettingRecommendations(query)),
    }),
  ];
}
