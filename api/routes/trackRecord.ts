import { chainPage, proofOf, publishedHeads } from '../../shared/app/commitments/read';
import { trackRecordChartSvg } from '../../shared/domain/trackRecord/charts';
import { chartSubtitle, loadTrackRecordBets, MAX_TRACK_RECORD_DAYS, trackRecordReport } from '../../shared/app/trackRecord/load';
import { badRequest, notFound } from '../errors';
import { chainHeadsQuery, chainQuery, proofParams, proofQuery, trackRecordChartQuery, trackRecordQuery, trackRecordResponses } from '../schemas/trackRecord';
import { route } from './route';
import type { Route } from './spec';

/** A window of days or all, in one wording whatever was wrong with it. */
const DAYS_MESSAGE = `days must be an integer from 1 to ${MAX_TRACK_RECORD_DAYS}, or all`;

/**
 * /v2/ai/track-record: the record of settled recommendations, computed from the bets, and the
 * commitments chain that lets anyone check those bets were published before kickoff and never
 * edited (docs/track-record.md).
 */
export function trackRecordRoutes(): Route[] {
  return [
    route({
      path: '/ai/track-record',
      price: '/v2/ai/track-record',
      operationId: 'trackRecord',
      summary: 'Track record of the settled recommendations, with the commitments chain head',
      description:
        'Settled recommendations whose event started in the last `days` days (or ever, `days=all`), optionally of one sport and confidence: bets, wins, losses, pushes, ' +
        'profit and ROI on flat 1-unit stakes, closing line value (mean, standard error, share beating the close) where a closing line was captured, ' +
        'calibration bins (predicted against observed) and the same by confidence; `head` is the current head of the commitments chain, `lastPublishedHead` the latest hourly published one.',
      tag: 'AI',
      auth: 'key',
      query: trackRecordQuery,
      messages: { days: DAYS_MESSAGE },
      response: trackRecordResponses.trackRecord,
      // Its window ends at the world's now: a page lives at most CACHE_TTL_S, and ends with every settlement and link (`ai`).
      handler: ({ query: q, cached, app }) => cached('track-record', q, ['ai'], () => trackRecordReport(app, q)),
    }),
    route({
      path: '/ai/track-record/chart.svg',
      price: '/v2/ai/track-record/chart.svg',
      operationId: 'trackRecordChart',
      summary: 'Track record chart (SVG)',
      description: 'A server-rendered SVG of the same window and filters: cumulative profit in units, the CLV distribution, or the reliability diagram. No script: readable anywhere an image is.',
      tag: 'AI',
      auth: 'key',
      query: trackRecordChartQuery,
      messages: { days: DAYS_MESSAGE },
      response: trackRecordResponses.trackRecordChart,
      mediaType: 'image/svg+xml',
      handler: async ({ query: q, text, app }) => {
        const { bets } = await loadTrackRecordBets(app, q);
        return text('image/svg+xml', trackRecordChartSvg(q.kind, bets, chartSubtitle(q, bets.length)));
      },
    }),
    route({
      path: '/ai/track-record/chain',
      price: '/v2/ai/track-record/chain',
      operationId: 'trackRecordChain',
      summary: 'The commitments chain, page by page',
      description: 'Links from `from` on, in order: each link is SHA-256 of the previous link hash followed by its canonical record (docs/track-record.md). Recompute them all to check the head.',
      tag: 'AI',
      auth: 'key',
      query: chainQuery,
      response: trackRecordResponses.trackRecordChain,
      handler: ({ query: q, cached, app }) => cached('track-record-chain', q, ['ai'], () => chainPage(app, q.from, q.limit)),
    }),
    route({
      path: '/ai/track-record/heads',
      price: '/v2/ai/track-record/heads',
      operationId: 'trackRecordHeads',
      summary: 'Published heads of the commitments chain',
      description: 'The head published every hour, newest first: keep them, and any later rewrite of the chain stops leading to a head you hold.',
      tag: 'AI',
      auth: 'key',
      query: chainHeadsQuery,
      response: trackRecordResponses.trackRecordHeads,
      handler: ({ query: q, cached, app }) => cached('track-record-heads', q, ['ai'], () => publishedHeads(app, q.limit)),
    }),
    route({
      path: '/ai/track-record/{recommendationId}/proof',
      price: '/v2/ai/track-record/{recommendationId}/proof',
      operationId: 'trackRecordProof',
      summary: 'Proof that a recommendation was committed, and never edited',
      description:
        'The committed record (canonical string and parsed), its link, its settlement links, and the later links up to the current head (or to the head of length `to`, such as a published head you kept): ' +
        'hashing each record after the previous hash recomputes the head. At most `limit` later links are listed; when the head is further, `next` is where the path continues (`/v2/ai/track-record/chain?from=next`). ' +
        '400 when `to` does not hold the record or is beyond the current head; 404 when the id was never committed.',
      tag: 'AI',
      auth: 'key',
      params: proofParams,
      query: proofQuery,
      response: trackRecordResponses.trackRecordProof,
      errors: [400, 404],
      handler: async ({ params, query: q, json, app }) => {
        const p = await proofOf(app, params.recommendationId, { limit: q.limit, to: q.to });
        if (p.kind === 'not-committed') throw notFound(`No committed recommendation or pick with id ${params.recommendationId}`);
        if (p.kind === 'bad-to') throw badRequest(p.message);
        return json(p.proof);
      },
    }),
  ];
}
