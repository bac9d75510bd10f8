import { trackRecordChartSvg } from '../../../shared/domain/trackRecord/charts';
import { chartSubtitle, loadTrackRecordBets, MAX_TRACK_RECORD_DAYS, trackRecordWithCharts } from '../../../shared/app/trackRecord/load';
import { svgResponse, trackRecordChartWindowQuery, trackRecordWindowQuery } from '../../schemas/account';
import { accountTrackRecordResponse } from '../../schemas/trackRecord';
import { route } from '../route';
import type { Route } from '../spec';
import { ACCOUNT } from './common';

/** How the window's parameters have always been refused on the account API. */
const WINDOW_MESSAGES = { days: `days must be an integer from 1 to ${MAX_TRACK_RECORD_DAYS}, or all`, per: 'per must be recommendation or outcome' };

/** The model's record for the signed-in developer, free: the dashboard shows it (the metered /v2/ai/track-record serves programs). */
export function accountTrackRecordRoutes(): Route[] {
  return [
    route({
      ...ACCOUNT,
      path: '/track-record',
      auth: 'session',
      operationId: 'accountTrackRecord',
      summary: "The model's track record, for the dashboard",
      description:
        'The same figures as /v2/ai/track-record (without the sport and confidence filters), for a signed-in session, with its three charts (`charts`, SVG documents as text) drawn from the same read of the bets: what the dashboard shows, figures and charts always of the same bets.',
      query: trackRecordWindowQuery,
      messages: WINDOW_MESSAGES,
      response: accountTrackRecordResponse,
      errors: { 400: 'Bad days or per.' },
      handler: async ({ query, json, app }) => json(await trackRecordWithCharts(app, query)),
    }),
    route({
      ...ACCOUNT,
      path: '/track-record/chart.svg',
      auth: 'session',
      operationId: 'accountTrackRecordChart',
      summary: 'Track record chart (SVG), for the dashboard',
      description: 'The same charts as /v2/ai/track-record/chart.svg, for a signed-in session.',
      query: trackRecordChartWindowQuery,
      messages: WINDOW_MESSAGES,
      response: svgResponse,
      mediaType: 'image/svg+xml',
      errors: { 400: 'Bad kind, days or per.' },
      handler: async ({ query, text, app }) => {
        const window = { days: query.days, per: query.per };
        const { bets } = await loadTrackRecordBets(app, window);
        return text('image/svg+xml', trackRecordChartSvg(query.kind, bets, chartSubtitle(window, bets.length)));
      },
    }),
  ];
}
