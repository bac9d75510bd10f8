import { Schema, type InferSchemaType } from 'mongoose';
import { DELIVERY_STATUSES } from '../../../domain/webhooks/events';
import { defineModel, nullable, required, type Lean } from './define';

/** One attempt: when, how long, and the receiver's status code or the error that kept it from answering. */
const AttemptSchema = new Schema(
  {
    ...required({ n: Number, at: Date, durationMs: Number }),
    ...nullable({ statusCode: Number, error: String }),
    manual: { type: Boolean, default: false },
  },
  { _id: false },
);

/**
 * One event to one endpoint: `_id` is `<endpointId>_<eventId>` (shared/domain/webhooks/events.ts),
 * so a second fan-out of the event finds it. The body is stored as sent: every attempt sends the
 * same bytes. Written by the fan-out (insert) and then by the attempts of the delivery worker,
 * one at a time (the next attempt is queued by the previous one).
 */
const WebhookDeliverySchema = new Schema(
  {
    ...required({ _id: String, accountId: String, endpointId: String, eventId: String, type: String, body: String }),
    status: { type: String, enum: DELIVERY_STATUSES, required: true },
    attempts: { type: [AttemptSchema], default: [] },
    ...nullable({ nextAttemptAt: Date, deliveredAt: Date, reason: String }),
    /** Whether its price was charged (once, at its first 2xx). */
    charged: { type: Boolean, default: false },
  },
  { collection: 'webhookdeliveries', timestamps: true },
);

export type WebhookDeliveryDoc = Lean<InferSchemaType<typeof WebhookDeliverySchema>>;
export const WebhookDelivery = defineModel('WebhookDelivery', WebhookDeliverySchema, [
  [
    { endpointId: 1, createdAt: -1 },
    { read: 'webhooks.ts:findDeliveriesOfEndpoint (newest first), deleteDeliveriesOfEndpoint', gin: { endpointId: 'webhooks.ts:findDeliveriesOfEndpoint, deleteDeliveriesOfEndpoint' } },
  ],
  [
    { status: 1, nextAttemptAt: 1 },
    { read: 'webhooks.ts:findOverdueDeliveries (the sweep: pending past their time)', gin: { status: 'webhooks.ts:findOverdueDeliveries (pending ones are few)' } },
  ],
  [{ createdAt: 1 }, { read: 'webhooks.ts:deleteDeliveriesCreatedBefore (the sweep: retention)' }],
]);
