import type { AppContext } from '../context';
import type { EnqueueIntentOf } from '../intents';
import { debitRequest, settleRequest, type Debit } from '../billing/metering';
import { chargeEndpointOf, creditsOf, isWebhookEventType, type DeliveredType } from '../../domain/webhooks/events';
import { delivered, parseRetrySchedule, retryDelay, shouldDisable } from '../../domain/webhooks/schedule';
import { signedHeaders } from '../../domain/webhooks/signing';
import type { PostResult, WebhookDeliveryRow, WebhookEndpointRow } from './ports';

/**
 * One attempt of one delivery (docs/webhooks.md, "Delivery"). The delivery's document is the
 * truth: an attempt already recorded is not made again (a replayed job only makes sure the next
 * one is queued), and a failed attempt queues the next of the schedule as a delayed job of its
 * own id. A worker that dies mid-attempt leaves its job to BullMQ's stalled check: the attempt
 * is made again, with the same webhook-id (at least once).
 */

type DeliverIntent = EnqueueIntentOf<'webhooks', 'deliver'>;

/** An attempt's job (pure); `manual`: asked for by the owner (redeliver), apart from the schedule's. */
export function deliverIntent(deliveryId: string, attempt: number, manual = false, delay?: number): DeliverIntent {
  return { kind: 'enqueue', queue: 'webhooks', name: 'deliver', data: manual ? { deliveryId, attempt, manual } : { deliveryId, attempt }, ...(delay === undefined ? {} : { delay }) };
}

export type AttemptOutcome =
  | { outcome: 'gone' }
  | { outcome: 'done'; status: string }
  | { outcome: 'replayed' }
  | { outcome: 'cancelled'; reason: string }
  | { outcome: 'attempted'; statusCode: number | null; error: string | null; status: string; next: number | null };

const typeOf = (t: string): DeliveredType => (t === 'ping' || isWebhookEventType(t) ? t : 'ping');

/** The secrets an attempt is signed with: the endpoint's, and the one a rotation replaced while it is honoured. */
export function signingSecrets(ep: Pick<WebhookEndpointRow, 'secret' | 'previousSecret' | 'previousSecretUntil'>, now: Date): string[] {
  return ep.previousSecret && ep.previousSecretUntil && ep.previousSecretUntil > now ? [ep.secret, ep.previousSecret] : [ep.secret];
}

export async function attemptDelivery(ctx: AppContext, job: { deliveryId: string; attempt: number; manual?: boolean }): Promise<AttemptOutcome> {
  const store = ctx.webhooks;
  const cfg = ctx.config;
  const manual = job.manual === true;
  const d = await store.delivery(job.deliveryId);
  if (!d) return { outcome: 'gone' };
  if (!manual && d.status !== 'pending') return { outcome: 'done', status: d.status };
  if (d.attempts.length >= job.attempt) {
    // A replay of an attempt already made (its worker died after recording it): the next one is
    // queued, in case it died before queueing it. Its id collapses with the one queued already.
    if (!manual && d.status === 'pending' && d.nextAttemptAt) {
      await ctx.dispatch([deliverIntent(d._id, d.attempts.length + 1, false, Math.max(0, d.nextAttemptAt.getTime() - ctx.clock.now().getTime()))]);
    }
    return { outcome: 'replayed' };
  }
  const ep = await store.endpoint(d.endpointId);
  if (!ep) return cancel(ctx, d, 'the endpoint was deleted');
  const disabled = (await store.health([ep._id])).get(ep._id)?.disabledAt;
  if (disabled) return cancel(ctx, d, `the endpoint was turned off on ${disabled.toISOString()}`);

  const type = typeOf(d.type);
  const cost = d.charged ? 0 : creditsOf(type);
  const startedAt = ctx.clock.now();
  let debit: Debit | undefined;
  let result: PostResult;
  if (cost > 0) debit = await debitRequest(ctx, { accountId: d.accountId, cost, ref: `wh.${d._id}.a${job.attempt}${manual ? 'm' : ''}` });
  if (debit && !debit.ok) {
    // Not sent: live data is never delivered without its debit. Retried on the schedule (a top-up meanwhile delivers it).
    result = { statusCode: null, error: 'insufficient_credits', durationMs: 0 };
  } else {
    const headers = signedHeaders(signingSecrets(ep, startedAt), d.eventId, Math.floor(startedAt.getTime() / 1000), d.body);
    result = await store.post({ url: ep.url, headers, body: d.body, timeoutMs: cfg.WEBHOOK_TIMEOUT_MS, allowPrivate: cfg.WEBHOOK_ALLOW_PRIVATE });
  }
  const ok = delivered(result.statusCode);
  if (debit?.ok) {
    // Charged as a request is: kept on a 2xx, given back otherwise.
    settleRequest(ctx, { accountId: d.accountId, keyId: ep._id, ref: debit.ref, hold: debit.hold, at: debit.at, cost, endpoint: chargeEndpointOf(type), charged: ok });
  }

  const attempt = { n: job.attempt, at: startedAt, durationMs: result.durationMs, statusCode: result.statusCode, error: result.error, manual };
  const now = ctx.clock.now();
  let next: number | null = null;
  let status = d.status;
  if (ok) {
    status = 'delivered';
    await store.recordAttempt(d._id, attempt, { status, deliveredAt: now, nextAttemptAt: null, reason: null, ...(cost > 0 ? { charged: true } : {}) });
  } else if (manual && d.status !== 'pending') {
    // A resend the owner asked for: one attempt, the delivery keeps its state.
    await store.recordAttempt(d._id, attempt, {});
  } else {
    const made = d.attempts.length + 1;
    next = retryDelay(parseRetrySchedule(cfg.WEBHOOK_RETRY_SCHEDULE_MS.split(',')), made);
    status = next === null ? 'failed' : 'pending';
    await store.recordAttempt(d._id, attempt, { status, nextAttemptAt: next === null ? null : new Date(now.getTime() + next), reason: next === null ? `${made} attempts failed` : null });
    if (next !== null) await ctx.dispatch([deliverIntent(d._id, made + 1, false, next)]);
  }
  await recordHealth(ctx, ep, ok, result);
  ctx.log({ component: 'webhooks' }).debug({ deliveryId: d._id, attempt: job.attempt, statusCode: result.statusCode, error: result.error, ms: result.durationMs }, 'webhook attempt');
  return { outcome: 'attempted', statusCode: result.statusCode, error: result.error, status, next };
}

async function cancel(ctx: AppContext, d: WebhookDeliveryRow, reason: string): Promise<AttemptOutcome> {
  await ctx.webhooks.setDelivery(d._id, { status: 'cancelled', nextAttemptAt: null, reason });
  return { outcome: 'cancelled', reason };
}

/**
 * The endpoint's run of failures: a delivered attempt ends it; a failed one (an answer other than
 * 2xx, no answer, an address refused) lengthens it and may turn the endpoint off. An attempt not
 * made for want of credits is the account's, not the endpoint's.
 */
async function recordHealth(ctx: AppContext, ep: WebhookEndpointRow, ok: boolean, result: PostResult): Promise<void> {
  const store = ctx.webhooks;
  if (ok) return store.recordSuccess(ep._id);
  if (result.error === 'insufficient_credits') return;
  const nowMs = ctx.clock.now().getTime();
  const error = result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.error ?? 'failed');
  const run = await store.recordFailure(ep._id, nowMs, error);
  const rule = { minFailures: ctx.config.WEBHOOK_DISABLE_AFTER_FAILURES, afterMs: ctx.config.WEBHOOK_DISABLE_AFTER_MS };
  if (shouldDisable(run, nowMs, rule)) {
    const since = new Date(run.sinceMs ?? nowMs).toISOString();
    await store.disable(ep._id, nowMs, `${run.run} attempts failed in a row since ${since} (last: ${error})`);
    ctx.log({ component: 'webhooks' }).warn({ endpointId: ep._id, accountId: ep.accountId, run: run.run, since }, 'webhook endpoint turned off after failing');
  }
}
