import { Pick as PickModel, Recommendation, WebhookDelivery, WebhookEndpoint } from '../models';
import type { WebhookDeliveryDoc } from '../models/webhookDelivery';
import type { WebhookEndpointDoc } from '../models/webhookEndpoint';
import { isDuplicateKey } from '../duplicateKey';

/** Webhook endpoints and their deliveries (docs/webhooks.md), and what a fan-out reads of the bets. */

export type { WebhookDeliveryDoc, WebhookEndpointDoc };

export async function createWebhookEndpoint(doc: { _id: string; accountId: string; url: string; events: string[]; secret: string }): Promise<WebhookEndpointDoc> {
  return (await WebhookEndpoint.create(doc)).toObject();
}

export async function findWebhookEndpointsOfAccount(accountId: string): Promise<WebhookEndpointDoc[]> {
  return WebhookEndpoint.find({ accountId }).sort({ createdAt: 1, _id: 1 }).lean<WebhookEndpointDoc[]>();
}

export async function findWebhookEndpoint(id: string): Promise<WebhookEndpointDoc | null> {
  return WebhookEndpoint.findById(id).lean<WebhookEndpointDoc>();
}

/** The endpoints subscribed to `type`, of every account. */
export async function findWebhookEndpointsSubscribedTo(type: string): Promise<WebhookEndpointDoc[]> {
  return WebhookEndpoint.find({ events: type }).lean<WebhookEndpointDoc[]>();
}

/** Deletes one of the account's endpoints; false when it holds none of that id. */
export async function deleteWebhookEndpoint(accountId: string, id: string): Promise<boolean> {
  return (await WebhookEndpoint.deleteOne({ _id: id, accountId })).deletedCount > 0;
}

export async function setWebhookSecret(accountId: string, id: string, secret: string, previous: { secret: string; until: Date }): Promise<boolean> {
  const r = await WebhookEndpoint.updateOne({ _id: id, accountId }, { $set: { secret, previousSecret: previous.secret, previousSecretUntil: previous.until } });
  return r.matchedCount > 0;
}

/** Inserts the deliveries not stored yet (a stored id is a duplicate and stays as it is); returns the ids this call inserted. */
export async function insertDeliveriesIfAbsent(docs: readonly Omit<WebhookDeliveryDoc, 'createdAt' | 'updatedAt' | 'attempts' | 'deliveredAt' | 'reason' | 'charged'>[]): Promise<string[]> {
  if (docs.length === 0) return [];
  try {
    return (await WebhookDelivery.insertMany(docs, { ordered: false })).map((d) => String(d._id));
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const inserted: unknown = (err as { insertedDocs?: unknown }).insertedDocs;
    return Array.isArray(inserted) ? inserted.map((d: { _id?: unknown }) => String(d._id)) : [];
  }
}

export async function findDelivery(id: string): Promise<WebhookDeliveryDoc | null> {
  return WebhookDelivery.findById(id).lean<WebhookDeliveryDoc>();
}

/** The endpoint's deliveries, newest first. */
export async function findDeliveriesOfEndpoint(endpointId: string, limit: number): Promise<WebhookDeliveryDoc[]> {
  return WebhookDelivery.find({ endpointId }).sort({ createdAt: -1, _id: 1 }).limit(limit).lean<WebhookDeliveryDoc[]>();
}

/** Appends an attempt and sets the delivery's state in one update. */
export async function recordDeliveryAttempt(
  id: string,
  attempt: { n: number; at: Date; durationMs: number; statusCode: number | null; error: string | null; manual: boolean },
  set: Partial<Pick<WebhookDeliveryDoc, 'status' | 'nextAttemptAt' | 'deliveredAt' | 'reason' | 'charged'>>,
): Promise<void> {
  await WebhookDelivery.updateOne({ _id: id }, { $push: { attempts: attempt }, $set: set });
}

export async function setDeliveryFields(id: string, set: Partial<Pick<WebhookDeliveryDoc, 'status' | 'nextAttemptAt' | 'reason'>>): Promise<void> {
  await WebhookDelivery.updateOne({ _id: id }, { $set: set });
}

/** Pending deliveries whose next attempt was due before `before` (their job may be lost), oldest due first. */
export async function findOverdueDeliveries(before: Date, limit: number): Promise<WebhookDeliveryDoc[]> {
  return WebhookDelivery.find({ status: 'pending', nextAttemptAt: { $lt: before } })
    .sort({ nextAttemptAt: 1 })
    .limit(limit)
    .lean<WebhookDeliveryDoc[]>();
}

export async function deleteDeliveriesOfEndpoint(endpointId: string): Promise<number> {
  return (await WebhookDelivery.deleteMany({ endpointId })).deletedCount;
}

export async function deleteDeliveriesCreatedBefore(before: Date): Promise<number> {
  return (await WebhookDelivery.deleteMany({ createdAt: { $lt: before } })).deletedCount;
}

/** An event's settled recommendations, with their result and closing line (a `settled` change's webhooks). */
export async function findSettledRecommendationsOfEvent(eventId: string) {
  return Recommendation.find({ eventId, settled: true })
    .select({ eventId: 1, betItemId: 1, code: 1, outcome: 1, bookmaker: 1, odds: 1, result: 1, resultDetail: 1, returnPerUnit: 1, settledVersion: 1, settlementDate: 1, closingOdds: 1, clv: 1 })
    .lean<
      {
        _id: string;
        eventId: string;
        betItemId?: string | null;
        code?: string | null;
        outcome?: string | null;
        bookmaker?: string | null;
        odds?: number | null;
        result?: string | null;
        resultDetail?: string | null;
        returnPerUnit?: number | null;
        settledVersion?: number | null;
        settlementDate?: Date | null;
        closingOdds?: number | null;
        clv?: number | null;
      }[]
    >();
}

/** A featured pick, whole (its `pick.created` webhook). */
export async function findPickForWebhook(id: string) {
  return PickModel.findById(id).lean();
}
