import type { Request } from 'express';
import { isChangeId } from '../../shared/domain/feed/changes';
import { sportByName } from '../../shared/domain/sports';
import { STREAM_CHANNELS, type StreamFilter } from '../../shared/domain/stream/messages';
import { badRequest } from '../errors';
import type { streamQuery } from '../schemas/stream';
import type { Infer } from './spec';

/**
 * What a stream request asks for, read the same way by every route that opens one (GET /v2/stream
 * with a key, GET /v2/account/stream with a session: docs/stream.md): its resume point and filter.
 */

/** The resume point: the Last-Event-ID header, else the lastEventId parameter; 400 when it is not an id of the feed. */
export function lastEventIdOf(req: Request, query: Infer<typeof streamQuery>): string | undefined {
  const header = req.headers['last-event-id'];
  const lastEventId = typeof header === 'string' && header.trim() ? header.trim() : query.lastEventId;
  if (lastEventId !== undefined && !isChangeId(lastEventId)) throw badRequest('Last-Event-ID must be a message id of this stream (<ms>-<seq>)');
  return lastEventId;
}

/** The channels and filters of the query (all channels when none is named). */
export function streamFilterOf(query: Infer<typeof streamQuery>): StreamFilter {
  return {
    channels: new Set(query.channels ?? STREAM_CHANNELS),
    ...(query.sport ? { sportId: sportByName(query.sport)?.id } : {}),
    ...(query.competitionId ? { competitionId: Number(query.competitionId) } : {}),
    ...(query.eventIds ? { eventIds: new Set(query.eventIds) } : {}),
  };
}
