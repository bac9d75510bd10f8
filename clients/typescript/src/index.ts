/**
 * @odds-ai/client: the typed client of the API's /v2 (README, "Typed client"). The types are
 * generated from /v2/openapi.json (`npm run client:types`); calls go through openapi-fetch;
 * stream() follows GET /v2/stream's resume contract.
 */
export { createClient, credits, ok, ApiRequestError, type ApiError, type OddsClient, type OddsClientOptions } from './client.js';
export {
  CHANNEL_KINDS,
  type ChangeKindOf,
  type ChangeMessage,
  type ChannelMessage,
  type EventStream,
  type SnapshotReason,
  type SnapshotRequired,
  type StreamChannel,
  type StreamEnded,
  type StreamErrorBody,
  type StreamItem,
  type StreamOptions,
  type StreamQuery,
} from './stream.js';
export { SseParser, type SseEvent } from './sse.js';
export type { components, operations, paths } from './schema.js';
