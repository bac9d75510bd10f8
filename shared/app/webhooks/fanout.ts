import type { AppContext } from '../context';
import type { EnqueueIntentOf, Intent } from '../intents';
import { deliveryIdOf, eventBody, eventSpec, receives, type WebhookEvent, type WebhookEventType } from '../../domain/webhooks/events';
import { balanceLow, pickCreated, recommendationCreated, recommendationSettled } from '../../domain/webhooks/payloads';
import type { WebhookEndpointRow } from './ports';

/**
 * From what the service knows to deliveries: each event to every endpoint it concerns (subscribed
 * to its type, on, and for an account's event that account's own), one delivery per pair under
 * an id of the pair, so finding an event twice delivers it once per endpoint. The first attempt of
 * each is queued at once; a delivery whose job is lost is queued again by the sweep.
 */

/** Entries of the change feed read per batch. */
export const FEED_BATCH = 500;
/** The cursor before any entry. */
const FEED_START = '0-0';

export async function fanOut(ctx: AppContext, events: readonly WebhookEvent[]): Promise<{ deliveries: number }> {
  if (events.length === 0) return { deliveries: 0 };
  const store = ctx.webhooks;
  // Candidates per type (every account's) or per account (its own), read once per call.
  const byType = new Map<string, Promise<WebhookEndpointRow[]>>();
  const byAccount = new Map<string, Promise<WebhookEndpointRow[]>>();
  const candidates = (e: WebhookEvent) => {
    if (eventSpec(e.type)?.audience === 'account' && e.accountId) {
      const id = e.accountId;
      if (!byAccount.has(id)) byAccount.set(id, store.endpointsOfAccount(id));
      return byAccount.get(id) ?? Promise.resolve([]);
    }
    if (!byType.has(e.type)) byType.set(e.type, store.endpointsSubscribedTo(e.type));
    return byType.get(e.type) ?? Promise.resolve([]);
  };
  const pairs: { event: WebhookEvent; endpoint: WebhookEndpointRow }[] = [];
  for (const event of events) for (const endpoint of await candidates(event)) if (receives(endpoint, event)) pairs.push({ event, endpoint });
  if (pairs.length === 0) return { deliveries: 0 };
  const health = await store.health([...new Set(pairs.map((p) => p.endpoint._id))]);
  const live = pairs.filter((p) => !health.get(p.endpoint._id)?.disabledAt);
  if (live.length === 0) return { deliveries: 0 };
  const now = ctx.clock.now();
  const docs = live.map(({ event, endpoint }) => ({
    _id: deliveryIdOf(endpoint._id, event.id),
    accountId: endpoint.accountId,
    endpointId: endpoint._id,
    eventId: event.id,
    type: event.type,
    body: eventBody(event),
    status: 'pending' as const,
    nextAttemptAt: now,
  }));
  await store.insertDeliveries(docs);
  // Every pair, not only those inserted now: a fan-out run again after a crash queues what the
  // first run inserted and did not queue (an attempt already made is not made again).
  const intent: Intent = { kind: 'enqueue-many', queue: 'webhooks', name: 'deliver', jobs: docs.map((d) => ({ data: { deliveryId: d._id, attempt: 1 }, delay: 0 })) };
  await ctx.dispatch([intent]);
  return { deliveries: docs.length };
}

const PIPELINE_TYPES: readonly WebhookEventType[] = ['recommendation.created', 'recommendation.settled'];

/**
 * One batch of the change feed after the fan-out's cursor: new recommendations and settled events
 * become events, then the cursor moves past the batch. A crash before the cursor moves reads the
 * batch again (its deliveries are found, not doubled): at least once. A fresh cursor starts at the
 * feed's newest entry (no event from before the first run); a cursor older than the feed keeps
 * (a worker stopped longer than CHANGE_FEED_RETENTION_MS) goes on from the oldest entry, and says so.
 */
export async function fanOutFeed(ctx: AppContext, batch = FEED_BATCH): Promise<{ entries: number; events: number; deliveries: number }> {
  const store = ctx.webhooks;
  const cursor = await store.feedCursor();
  if (cursor === null) {
    // An empty feed: from its very start, so its first entries are read.
    await store.setFeedCursor((await store.feedHead()) ?? FEED_START);
    return { entries: 0, events: 0, deliveries: 0 };
  }
  const { entries, gap } = await store.readFeed(cursor, batch);
  if (gap && cursor !== FEED_START) ctx.log({ component: 'webhooks' }).warn({ cursor }, 'webhook fan-out: change feed entries after its cursor were trimmed unread; their events are not delivered');
  if (entries.length === 0) return { entries: 0, events: 0, deliveries: 0 };
  const subscribed = new Set<string>();
  for (const type of PIPELINE_TYPES) if ((await store.endpointsSubscribedTo(type)).length) subscribed.add(type);
  const events: WebhookEvent[] = [];
  if (subscribed.size) {
    const fallbackAt = ctx.clock.now();
    for (const { change } of entries) {
      if (change.kind === 'recommendation' && subscribed.has('recommendation.created')) {
        const e = recommendationCreated(change);
        if (e) events.push(e);
      } else if (change.kind === 'settled' && subscribed.has('recommendation.settled')) {
        for (const r of await store.settledRecommendationsOfEvent(change.eventId)) events.push(recommendationSettled(r, fallbackAt));
      }
    }
  }
  const { deliveries } = await fanOut(ctx, dedupe(events));
  await store.setFeedCursor(entries[entries.length - 1].id);
  return { entries: entries.length, events: events.length, deliveries };
}

const dedupe = (events: readonly WebhookEvent[]) => [...new Map(events.map((e) => [e.id, e])).values()];

/** A new featured pick (queued by its rebuild before the pick is written): retried until the pick is stored. */
export async function fanOutPick(ctx: AppContext, pickId: string): Promise<{ deliveries: number }> {
  const pick = await ctx.webhooks.pick(pickId);
  if (!pick) throw new Error(`pick ${pickId} is not stored (yet)`);
  return fanOut(ctx, [pickCreated(pick, ctx.clock.now())]);
}

/** An event of one account (balance, recharges) as its job carries it. */
export async function fanOutAccountEvent(ctx: AppContext, p: { accountId: string; type: string; eventId: string; timestamp: string; data: Record<string, unknown> }): Promise<{ deliveries: number }> {
  const spec = eventSpec(p.type === 'ping' ? 'ping' : (p.type as WebhookEventType));
  if (!spec || spec.audience !== 'account') throw new Error(`${p.type} is no event of an account`);
  return fanOut(ctx, [{ id: p.eventId, type: spec.type, timestamp: new Date(p.timestamp), data: p.data, accountId: p.accountId }]);
}

/** The job that fans an account's event out (pure): its id is the event's, so the same event queued twice is one job. */
export function accountEventIntent(event: WebhookEvent & { accountId: string }): EnqueueIntentOf<'webhooks', 'account-event'> {
  return {
    kind: 'enqueue',
    queue: 'webhooks',
    name: 'account-event',
    data: { accountId: event.accountId, type: event.type, eventId: event.id, timestamp: event.timestamp.toISOString(), data: event.data },
  };
}

/**
 * Queues an account's event when one of its endpoints is subscribed to its type (most accounts
 * have none: no job). Callers announce on every run of the step that decided it (a job's replay
 * included), so a crash between the decision and this call loses nothing; the job's id collapses
 * the repeats.
 */
export async function announceAccountEvent(ctx: AppContext, event: WebhookEvent & { accountId: string }): Promise<void> {
  const endpoints = await ctx.webhooks.endpointsOfAccount(event.accountId);
  if (!endpoints.some((e) => e.events.includes(event.type))) return;
  await ctx.dispatch([accountEventIntent(event)]);
}

/** The job that announces a new pick (pure); a finished job of the same pick (deleted, then built again) is replaced. */
export function pickCreatedIntent(pickId: string): EnqueueIntentOf<'webhooks', 'pick-created'> {
  // Queued before the rebuild writes the pick: a first attempt at once would nearly always find it
  // missing and fail (a warning and a retry per new pick); a second later it is stored.
  return { kind: 'enqueue', queue: 'webhooks', name: 'pick-created', data: { pickId }, existing: 'replace-finished', delay: PICK_CREATED_DELAY_MS };
}

/** How long a `pick-created` job waits before its first attempt. */
export const PICK_CREATED_DELAY_MS = 1000;

/** The low balances of accounts with a `balance.low` endpoint, as events (the sweep's; a window's event is found again while it lasts). */
export async function lowBalanceEvents(ctx: AppContext): Promise<(WebhookEvent & { accountId: string })[]> {
  const accounts = [...new Set((await ctx.webhooks.endpointsSubscribedTo('balance.low')).map((e) => e.accountId))];
  const out: (WebhookEvent & { accountId: string })[] = [];
  for (const accountId of accounts) {
    const [head, settings] = await Promise.all([ctx.credits.admissionHead(accountId), ctx.credits.autoRechargeSettings(accountId)]);
    const level = settings.enabled ? settings.threshold : ctx.config.WEBHOOK_BALANCE_LOW_CREDITS;
    if (head.balance >= level) continue;
    out.push({
      ...balanceLow({ accountId, balance: head.balance, level, topUpSeq: head.topUpSeq, autoRecharge: { enabled: settings.enabled, threshold: settings.threshold }, at: ctx.clock.now() }),
      accountId,
    });
  }
  return out;
}
