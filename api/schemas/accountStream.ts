/** The 200 body of GET /v2/account/stream: a text/event-stream, the messages of GET /v2/stream (described, not a JSON schema of its own). */
export const accountStreamResponse = {
  type: 'string',
  description:
    "text/event-stream, the messages of GET /v2/stream: `id: <change feed entry id>`, `event: odds|scores|status|recommendations|settlements`, `data: {eventId, kind, at, provider, event?, data, conflated?, merged?, firstEntryId?, lastEntryId?, delayed?}` (`event`: `{homeTeam, awayTeam}`, the teams' English names, when the event is stored; a price change's items and a recommendation also carry `marketCaption` and `caption`, the catalog's names); " +
    '`event: snapshot_required` (no id) with `data: {reason, resumeWindowSeconds}`, reason outside_window, unknown_id, trimmed or slow_consumer; ' +
    '`event: error` (no id) with the error shape, then the end (not_signed_in: the session ended); `: heartbeat` comments when idle.',
} as const;
