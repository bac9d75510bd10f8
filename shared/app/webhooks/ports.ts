import type { ChangeEntry } from '../../domain/feed/changes';
import type { DeliveryStatus } from '../../domain/webhooks/events';
import type { PickRow, SettledRecommendationRow } from '../../domain/webhooks/payloads';

/** An endpoint as stored (the account API writes it; nothing else does). */
export interface WebhookEndpointRow {
  _id: string;
  accountId: string;
  url: string;
  events: string[];
  secret: string;
  previousSecret?: string | null;
  previousSecretUntil?: Date | null;
  createdAt?: Date;
}

export interface WebhookAttemptRow {
  n: number;
  at: Date;
  durationMs: number;
  statusCode?: number | null;
  error?: string | null;
  manual?: boolean | null;
}

export type { DeliveryStatus };

/** A delivery as stored: one event to one endpoint, and its attempts. */
export interface WebhookDeliveryRow {
  _id: string;
  accountId: string;
  endpointId: string;
  eventId: string;
  type: string;
  body: string;
  status: DeliveryStatus;
  attempts: WebhookAttemptRow[];
  nextAttemptAt?: Date | null;
  deliveredAt?: Date | null;
  reason?: string | null;
  charged?: boolean | null;
  createdAt?: Date;
}

/** An endpoint's run of failed attempts, and whether the worker turned it off. */
export interface EndpointHealthRow {
  run: number;
  sinceMs: number | null;
  lastError: string | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export interface PostResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * What webhooks read and write: endpoints and deliveries (MongoDB), each endpoint's failure run
 * (Redis), the change feed and the fan-out's place in it, the bets and picks an event is built
 * from, and the network (a lookup and a POST). Bound by the process in
 * shared/platform/stores/webhooks.ts; unit tests give one in memory.
 */
export interface WebhookStore {
  createEndpoint(doc: { _id: string; accountId: string; url: string; events: string[]; secret: string }): Promise<WebhookEndpointRow>;
  endpointsOfAccount(accountId: string): Promise<WebhookEndpointRow[]>;
  endpoint(id: string): Promise<WebhookEndpointRow | null>;
  /** Every account's endpoints subscribed to `type`. */
  endpointsSubscribedTo(type: string): Promise<WebhookEndpointRow[]>;
  /** Deletes one of the account's endpoints, its deliveries and its failure run; false when the account has none of that id. */
  deleteEndpoint(accountId: string, id: string): Promise<boolean>;
  /** A new secret; the one it replaces still signs until `previous.until`. */
  setSecret(accountId: string, id: string, secret: string, previous: { secret: string; until: Date }): Promise<boolean>;

  /** Inserts the deliveries not stored yet; returns the ids it inserted. */
  insertDeliveries(docs: readonly Omit<WebhookDeliveryRow, 'attempts' | 'deliveredAt' | 'reason' | 'charged' | 'createdAt'>[]): Promise<string[]>;
  delivery(id: string): Promise<WebhookDeliveryRow | null>;
  /** Newest first. */
  deliveriesOfEndpoint(endpointId: string, limit: number): Promise<WebhookDeliveryRow[]>;
  /** Appends the attempt and sets the delivery's state, in one write. */
  recordAttempt(id: string, attempt: Required<WebhookAttemptRow>, set: Partial<Pick<WebhookDeliveryRow, 'status' | 'nextAttemptAt' | 'deliveredAt' | 'reason' | 'charged'>>): Promise<void>;
  setDelivery(id: string, set: Partial<Pick<WebhookDeliveryRow, 'status' | 'nextAttemptAt' | 'reason'>>): Promise<void>;
  /** Pending deliveries due before `before`, oldest first. */
  overdueDeliveries(before: Date, limit: number): Promise<WebhookDeliveryRow[]>;
  deleteDeliveriesBefore(before: Date): Promise<number>;

  health(endpointIds: readonly string[]): Promise<Map<string, EndpointHealthRow>>;
  recordSuccess(endpointId: string): Promise<void>;
  recordFailure(endpointId: string, nowMs: number, error: string): Promise<{ run: number; sinceMs: number | null }>;
  disable(endpointId: string, nowMs: number, reason: string): Promise<void>;
  enable(endpointId: string): Promise<void>;

  /** Entries of the change feed after `afterId` (`gap`: some may have been trimmed unread). */
  readFeed(afterId: string, count: number): Promise<{ entries: ChangeEntry[]; gap: boolean }>;
  /** The feed's newest entry id, null when it is empty. */
  feedHead(): Promise<string | null>;
  feedCursor(): Promise<string | null>;
  setFeedCursor(id: string): Promise<void>;
  settledRecommendationsOfEvent(eventId: string): Promise<SettledRecommendationRow[]>;
  pick(id: string): Promise<PickRow | null>;

  /** Every address `host` resolves to; throws when it resolves to none. */
  resolveHost(host: string): Promise<string[]>;
  post(request: { url: string; headers: Record<string, string>; body: string; timeoutMs: number; allowPrivate: boolean }): Promise<PostResult>;
}
