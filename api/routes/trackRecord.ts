import type { RequestHandler } from 'express';
import { chainPage, currentHead, proofOf, publishedHeads } from '../../shared/commitments/read';
import { clvValues, cumulativeProfit, trackRecord, calibrationBins } from '../../shared/trackRecord/aggregate';
import { clvHistogramSvg, cumulativeProfitSvg, reliabilitySvg } from '../../shared/trackRecord/charts';
import { loadTrackRecordBets, type TrackRecordFilter } from '../../shared/trackRecord/load';
import { notFound } from '../errors';
import { validQuery } from '../middleware/validate';
import { chainHeadsQuery, chainQuery, proofParams, proofQuery, trackRecordChartQuery, trackRecordQuery } from '../schemas/trackRecord';
import type { RouteSpec } from './spec';

/**
 * /v2/ai/track-record: the record of settled recommendations, computed from the bets, and the
 * commitments chain that lets anyone check those bets were published before kickoff and never
 * edited (docs/track-record.md).
 */

const trackRecordHandler: RequestHandler = async (req, res) => {
  const q = validQuery<TrackRecordFilter>(req);
  const [{ bets, from, to }, head, published] = await Promise.all([loadTrackRecordBets(q), currentHead(), publishedHeads(1)]);
  res.json({
    period: { days: q.days, from: from.toISOString(), to: to.toISOString() },
    filters: { sport: q.sport ?? null, confidence: q.confidence ?? null },
    ...trackRecord(bets),
    head,
    lastPublishedHead: published.heads[0] ?? null,
  });
};

const proof: RequestHandler = async (req, res) => {
  const id = String(req.params.recommendationId);
  const p = await proofOf(id);
  if (!p) throw notFound(`No committed recommendation or pick with id ${id}`);
  res.json(p);
};

const chain: RequestHandler = async (req, res) => {
  const q = validQuery<{ from: number; limit: number }>(req);
  res.json(await chainPage(q.from, q.limit));
};

const heads: RequestHandler = async (req, res) => {
  const q = validQuery<{ limit: number }>(req);
  res.json(await publishedHeads(q.limit));
};

const chart: RequestHandler = async (req, res) => {
  const q = validQuery<TrackRecordFilter & { kind: 'cumulative' | 'clv' | 'calibration' }>(req);
  const { bets } = await loadTrackRecordBets(q);
  const subtitle = [`last ${q.days} days`, q.sport, q.confidence && `${q.confidence} confidence`, `${bets.length} settled bets`].filter(Boolean).join(', ');
  const svg =
    q.kind === 'cumulative' ? cumulativeProfitSvg(cumulativeProfit(bets), subtitle) : q.kind === 'clv' ? clvHistogramSvg(clvValues(bets), subtitle) : reliabilitySvg(calibrationBins(bets), subtitle);
  res.type('image/svg+xml').send(svg);
};

export function trackRecordRoutes(): RouteSpec[] {
  return [
    {
      path: '/ai/track-record',
      operationId: 'trackRecord',
      summary: 'Track record of the settled recommendations, with the commitments chain head',
      description:
        'Settled recommendations whose event started in the last `days` days, optionally of one sport and confidence: bets, wins, losses, pushes, ' +
        'profit and ROI on flat 1-unit stakes, closing line value (mean, standard error, share beating the close) where a closing line was captured, ' +
        'calibration bins (predicted against observed) and the same by confidence; `head` is the current head of the commitments chain, `lastPublishedHead` the latest hourly published one.',
      tag: 'AI',
      auth: 'key',
      query: trackRecordQuery,
      response: 'trackRecord',
      handler: trackRecordHandler,
    },
    {
      path: '/ai/track-record/chart.svg',
      operationId: 'trackRecordChart',
      summary: 'Track record chart (SVG)',
      description: 'A server-rendered SVG of the same window and filters: cumulative profit in units, the CLV distribution, or the reliability diagram. No script: readable anywhere an image is.',
      tag: 'AI',
      auth: 'key',
      query: trackRecordChartQuery,
      response: 'trackRecordChart',
      mediaType: 'image/svg+xml',
      handler: chart,
    },
    {
      path: '/ai/track-record/chain',
      operationId: 'trackRecordChain',
      summary: 'The commitments chain, page by page',
      description: 'Links from `from` on, in order: each link is SHA-256 of the previous link hash followed by its canonical record (docs/track-record.md). Recompute them all to check the head.',
      tag: 'AI',
      auth: 'key',
      query: chainQuery,
      response: 'trackRecordChain',
      handler: chain,
    },
    {
      path: '/ai/track-record/heads',
      operationId: 'trackRecordHeads',
      summary: 'Published heads of the commitments chain',
      description: 'The head published every hour, newest first: keep them, and any later rewrite of the chain stops leading to a head you hold.',
      tag: 'AI',
      auth: 'key',
      query: chainHeadsQuery,
      response: 'trackRecordHeads',
      handler: heads,
    },
    {
      path: '/ai/track-record/{recommendationId}/proof',
      operationId: 'trackRecordProof',
      summary: 'Proof that a recommendation was committed, and never edited',
      description:
        'The committed record (canonical string and parsed), its link, its settlement links, and every later link up to the current head: hashing each record after the previous hash recomputes the head.',
      tag: 'AI',
      auth: 'key',
      params: proofParams,
      query: proofQuery,
      response: 'trackRecordProof',
      errors: [404],
      handler: proof,
    },
  ];
}
