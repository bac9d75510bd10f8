import { STREAM_CHANNELS } from '../../shared/domain/stream/messages';
import { numericId, sportName } from './params';

/** A change feed entry id, as a stream's messages carry it. */
const ENTRY_ID = '^[0-9]{1,20}-[0-9]{1,20}$';

/** Query of GET /v2/stream (validator and OpenAPI document share it). */
export const streamQuery = {
  type: 'object',
  properties: {
    channels: {
      type: 'array',
      items: { type: 'string', enum: STREAM_CHANNELS },
      minItems: 1,
      maxItems: 5,
      uniqueItems: true,
      description: 'Channels to receive: comma-separated or repeated, of odds, scores, status, recommendations, settlements (default all).',
    },
    sport: { ...sportName, description: 'Only changes of events of this sport.' },
    competitionId: numericId('Only changes of events of this competition'),
    eventIds: {
      type: 'array',
      items: { type: 'string', pattern: '^[0-9]{1,19}$' },
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      description: 'Only changes of these events (up to 100 ids): comma-separated or repeated.',
    },
    lastEventId: {
      type: 'string',
      pattern: ENTRY_ID,
      description: 'Resume after this message id, for clients that cannot send the Last-Event-ID header (the header wins when both are sent).',
    },
  },
} as const;

/** The request headers a stream reads. */
export const streamHeaders = {
  type: 'object',
  properties: {
    'Last-Event-ID': { type: 'string', description: 'The id of the last message received: the stream resumes right after it, within the resume window.' },
  },
} as const;

/** The 200 body: a text/event-stream (described, not a JSON schema of its own). */
export const streamResponse = {
  type: 'string',
  description:
    "text/event-stream. Messages: `id: <change feed entry id>`, `event: odds|scores|status|recommendations|settlements`, `data: {eventId, kind, at, provider, event?, data, conflated?, merged?, firstEntryId?, lastEntryId?, delayed?}` (`event`: `{homeTeam, awayTeam}`, the teams' English names, when the event is stored; a price change's items and a recommendation also carry `marketCaption` and `caption`, the catalog's names); " +
    '`event: snapshot_required` (no id) with `data: {reason, resumeWindowSeconds}`, reason outside_window, unknown_id, trimmed or slow_consumer; ' +
    '`event: error` (no id) with the error shape, then the end (insufficient_credits, invalid_api_key, rate_limited for a test key at its daily cap); `: heartbeat` comments when idle.',
} as const;
