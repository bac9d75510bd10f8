import { createHash } from 'node:crypto';

/**
 * The webhook events: what each one is, who receives it and what a delivery of it costs (the
 * product's money rule: nothing a live key pays for is delivered without a debit). Pure: the
 * event's id, body and price from its subject, so a re-run of a fan-out names the same event.
 */

export const WEBHOOK_EVENT_TYPES = ['recommendation.created', 'recommendation.settled', 'pick.created', 'balance.low', 'recharge.succeeded', 'recharge.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** `ping`: the test an owner sends from the account API; never subscribed to, always deliverable. */
export type DeliveredType = WebhookEventType | 'ping';

const TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);
export const isWebhookEventType = (type: string): type is WebhookEventType => TYPES.has(type);

export interface WebhookEventSpec {
  readonly type: WebhookEventType;
  /** Credits one delivered event costs (charged once, at its first 2xx). */
  readonly credits: number;
  /** `all`: every subscribed endpoint of every account; `account`: the account it concerns only. */
  readonly audience: 'all' | 'account';
  readonly description: string;
}

/**
 * The catalogue. Live data (what a live key pays for on the REST API and the stream) costs a
 * credit per delivered event, as one request; news of the account's own money is free: it is no
 * data anyone sells.
 */
export const WEBHOOK_EVENTS: readonly WebhookEventSpec[] = [
  { type: 'recommendation.created', credits: 1, audience: 'all', description: 'The AI worker stored a new betting recommendation (before its event starts).' },
  {
    type: 'recommendation.settled',
    credits: 1,
    audience: 'all',
    description: "A recommendation was graded once its event ended: its result, return and the event's closing line (a corrected result is a new event).",
  },
  { type: 'pick.created', credits: 1, audience: 'all', description: 'A new featured pick (a single or a parlay) joined its day.' },
  {
    type: 'balance.low',
    credits: 0,
    audience: 'account',
    description: "The account's live balance fell under its auto-recharge threshold, or under the low-balance level when auto-recharge is off; once per top-up.",
  },
  { type: 'recharge.succeeded', credits: 0, audience: 'account', description: 'An auto-recharge was charged and its credits added.' },
  {
    type: 'recharge.failed',
    credits: 0,
    audience: 'account',
    description: 'An auto-recharge was declined (retried once an hour later) or could not be charged, and whether auto-recharge was turned off.',
  },
];

export function eventSpec(type: DeliveredType): WebhookEventSpec | undefined {
  return WEBHOOK_EVENTS.find((e) => e.type === type);
}

/** Credits a delivery of `type` costs (`ping` is free). */
export const creditsOf = (type: DeliveredType): number => eventSpec(type)?.credits ?? 0;

/** The ledger's endpoint label of a delivery's charge (usage lists it beside the API's paths). */
export const chargeEndpointOf = (type: DeliveredType): string => `WEBHOOK ${type}`;

/**
 * The event's id, the `webhook-id` every attempt of every delivery of it carries: derived from
 * its type and subject (a recommendation's id, a recommendation and the result version it was
 * graded at, an account's low-balance window), so the same event found twice (a change feed entry
 * published again after a crash, a sweep) has one id. `msg_` and 32 lowercase base32 characters
 * (160 bits of SHA-256): no `:` (a job id carries it) and nothing a receiver must escape.
 */
export function eventIdOf(type: DeliveredType, subject: string): string {
  const digest = createHash('sha256').update(`${type}\n${subject}`).digest();
  return `msg_${base32(digest.subarray(0, 20))}`;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** One event as the fan-out hands it to the endpoints subscribed to its type. */
export interface WebhookEvent {
  /** `msg_...`: the webhook-id. */
  id: string;
  type: DeliveredType;
  /** When it happened (world time for the pipeline's events, real time for the account's): the body's `timestamp`. */
  timestamp: Date;
  data: Record<string, unknown>;
  /** For account events: the only account whose endpoints receive it. */
  accountId?: string;
}

/** The body every attempt sends, byte for byte (the signature covers it): `{type, timestamp, data}`. */
export function eventBody(event: Pick<WebhookEvent, 'type' | 'timestamp' | 'data'>): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp.toISOString(), data: event.data });
}

/** Where a delivery stands: attempts still to come, delivered (a 2xx), failed (its schedule spent) or cancelled (its endpoint was turned off). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
const STATUSES: ReadonlySet<string> = new Set(DELIVERY_STATUSES);
export const isDeliveryStatus = (s: string): s is DeliveryStatus => STATUSES.has(s);

/** A delivery is one event to one endpoint: its id, unique per pair, so a second fan-out of the event finds it. */
export const deliveryIdOf = (endpointId: string, eventId: string): string => `${endpointId}_${eventId}`;

/** Which endpoints receive an event: those subscribed to its type, and for an account event only the account's own. */
export function receives(endpoint: { accountId: string; events: readonly string[] }, event: Pick<WebhookEvent, 'type' | 'accountId'>): boolean {
  if (event.type === 'ping') return false; // a ping names its endpoint itself
  if (!endpoint.events.includes(event.type)) return false;
  const spec = eventSpec(event.type);
  return spec?.audience === 'all' || endpoint.accountId === event.accountId;
}
