import type { AppContext } from '../context';
import { AccountError } from '../../domain/accounts/errors';
import { BillingInputError } from '../../domain/billing/errors';
import { randomBase62 } from '../../domain/billing/keys';
import { addressProblem, checkEndpointUrl, isIpLiteral } from '../../domain/webhooks/address';
import { deliveryIdOf, eventBody, eventIdOf, isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhooks/events';
import { newSecret } from '../../domain/webhooks/signing';
import { deliverIntent } from './deliver';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './ports';

/**
 * The account's webhook endpoints, as its owner manages them through the account API
 * (docs/webhooks.md): create (the secret shown once), list, delete, rotate the secret, turn back
 * on, send a test, list deliveries and deliver one again.
 */

/** After a rotation the replaced secret still signs, beside the new one, for a day (as Svix keeps it): receivers switch without a gap. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600_000;
/** Deliveries the list answers at most. */
export const MAX_DELIVERIES_LISTED = 100;

const notFound = () => new AccountError('not-found', 'Webhook endpoint not found');

function requireUrl(ctx: AppContext, raw: unknown): { url: string; host: string } {
  if (typeof raw !== 'string') throw new BillingInputError('url', 'is required (a string)');
  const cfg = ctx.config;
  const check = checkEndpointUrl(raw.trim(), { requireHttps: cfg.NODE_ENV === 'production', allowPrivate: cfg.WEBHOOK_ALLOW_PRIVATE });
  if (!check.ok) throw new BillingInputError('url', check.message);
  return check;
}

function requireEvents(raw: unknown): WebhookEventType[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new BillingInputError('events', `must be a non-empty list of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  const out: WebhookEventType[] = [];
  for (const e of raw) {
    if (typeof e !== 'string' || !isWebhookEventType(e)) throw new BillingInputError('events', `must name events of ${WEBHOOK_EVENT_TYPES.join(', ')} (got ${JSON.stringify(e)})`);
    if (!out.includes(e)) out.push(e);
  }
  return out;
}

/** Refuses a host that resolves to none, or to an address of the service's own network. */
async function requirePublicHost(ctx: AppContext, host: string): Promise<void> {
  if (isIpLiteral(host)) return; // judged with the URL
  let addresses: string[];
  try {
    addresses = await ctx.webhooks.resolveHost(host);
  } catch {
    addresses = []; // refused as one resolving inward is (addressProblem)
  }
  const problem = addressProblem(host, addresses, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  if (problem) throw new BillingInputError('url', problem);
}

async function ownEndpoint(ctx: AppContext, accountId: string, id: string): Promise<WebhookEndpointRow> {
  const ep = typeof id === 'string' ? await ctx.webhooks.endpoint(id) : null;
  if (!ep || ep.accountId !== accountId) throw notFound();
  return ep;
}

export async function createEndpoint(ctx: AppContext, accountId: string, input: { url: unknown; events: unknown }) {
  const { url, host } = requireUrl(ctx, input.url);
  const events = requireEvents(input.events);
  const limit = ctx.config.WEBHOOK_MAX_ENDPOINTS;
  if ((await ctx.webhooks.endpointsOfAccount(accountId)).length >= limit) throw new AccountError('too-many-webhooks', `An account holds at most ${limit} webhook endpoints: delete one first`);
  await requirePublicHost(ctx, host);
  const ep = await ctx.webhooks.createEndpoint({ _id: `we_${randomBase62(16)}`, accountId, url, events, secret: newSecret() });
  return { id: ep._id, url: ep.url, events, secret: ep.secret, createdAt: ep.createdAt ?? ctx.clock.now() };
}

/** The account's endpoints, oldest first, never a secret; whether each is on, and its current run of failures. */
export async function listEndpoints(ctx: AppContext, accountId: string) {
  const endpoints = await ctx.webhooks.endpointsOfAccount(accountId);
  const health = await ctx.webhooks.health(endpoints.map((e) => e._id));
  return {
    data: endpoints.map((e) => {
      const h = health.get(e._id);
      return {
        id: e._id,
        url: e.url,
        events: e.events.filter(isWebhookEventType),
        createdAt: e.createdAt ?? null,
        enabled: !h?.disabledAt,
        disabledAt: h?.disabledAt ?? null,
        disabledReason: h?.disabledReason ?? null,
        failedAttemptsInARow: h?.run ?? 0,
        failingSince: h?.sinceMs ? new Date(h.sinceMs) : null,
        lastError: h?.lastError ?? null,
      };
    }),
  };
}

export async function deleteEndpoint(ctx: AppContext, accountId: string, id: string) {
  await ownEndpoint(ctx, accountId, id);
  if (!(await ctx.webhooks.deleteEndpoint(accountId, id))) throw notFound();
  return { id, deletedAt: ctx.clock.now() };
}

/** A new secret, shown once; the replaced one signs beside it for PREVIOUS_SECRET_GRACE_MS. */
export async function rotateSecret(ctx: AppContext, accountId: string, id: string) {
  const ep = await ownEndpoint(ctx, accountId, id);
  const secret = newSecret();
  const until = new Date(ctx.clock.now().getTime() + PREVIOUS_SECRET_GRACE_MS);
  if (!(await ctx.webhooks.setSecret(accountId, id, secret, { secret: ep.secret, until }))) throw notFound();
  return { id, secret, previousSecretExpiresAt: until };
}

/** Turns an endpoint the worker turned off back on, its run of failures forgotten. */
export async function enableEndpoint(ctx: AppContext, accountId: string, id: string) {
  await ownEndpoint(ctx, accountId, id);
  await ctx.webhooks.enable(id);
  return { id, enabled: true };
}

/** A `ping` to the endpoint, delivered like any event (signed, retried, listed), free. */
export async function sendTest(ctx: AppContext, accountId: string, id: string) {
  const ep = await ownEndpoint(ctx, accountId, id);
  const now = ctx.clock.now();
  const eventId = eventIdOf('ping', `${ep._id}|${now.getTime()}|${randomBase62(12)}`);
  const deliveryId = deliveryIdOf(ep._id, eventId);
  const body = eventBody({ type: 'ping', timestamp: now, data: { endpointId: ep._id, message: 'A test event sent from the account API.' } });
  await ctx.webhooks.insertDeliveries([{ _id: deliveryId, accountId, endpointId: ep._id, eventId, type: 'ping', body, status: 'pending', nextAttemptAt: now }]);
  await ctx.dispatch([deliverIntent(deliveryId, 1)]);
  return { deliveryId, eventId, type: 'ping' as const };
}

function deliveryView(d: WebhookDeliveryRow) {
  return {
    id: d._id,
    eventId: d.eventId,
    type: d.type,
    status: d.status,
    createdAt: d.createdAt ?? null,
    nextAttemptAt: d.nextAttemptAt ?? null,
    deliveredAt: d.deliveredAt ?? null,
    reason: d.reason ?? null,
    attempts: d.attempts.map((a) => ({ n: a.n, at: a.at, statusCode: a.statusCode ?? null, error: a.error ?? null, durationMs: a.durationMs, manual: a.manual ?? false })),
  };
}

export async function listDeliveries(ctx: AppContext, accountId: string, id: string, limit: number) {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERIES_LISTED) throw new BillingInputError('limit', `must be an integer from 1 to ${MAX_DELIVERIES_LISTED}`);
  await ownEndpoint(ctx, accountId, id);
  return { data: (await ctx.webhooks.deliveriesOfEndpoint(id, limit)).map(deliveryView) };
}

/**
 * One more attempt of a delivery, now, whatever its state: a delivered event is sent again (not
 * charged again), a failed or cancelled one tried once more, and a pending one's next attempt is
 * brought forward (its schedule goes on from it if it fails).
 */
export async function redeliver(ctx: AppContext, accountId: string, endpointId: string, deliveryId: string) {
  await ownEndpoint(ctx, accountId, endpointId);
  const d = typeof deliveryId === 'string' ? await ctx.webhooks.delivery(deliveryId) : null;
  if (!d || d.endpointId !== endpointId) throw new AccountError('not-found', 'Delivery not found');
  const attempt = d.attempts.length + 1;
  await ctx.dispatch([deliverIntent(d._id, attempt, true)]);
  return { id: d._id, attempt };
}
