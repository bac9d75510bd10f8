import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required, type Lean } from './define';

/**
 * A webhook endpoint of an account (docs/webhooks.md). Written by the account API only (create,
 * rotate, delete): the delivery worker never writes it, so FerretDB's whole-document updates
 * cannot lose a rotated secret to a concurrent write. Its failure run and whether it is turned off
 * are the worker's, kept in Redis (shared/platform/webhooks/health.ts).
 *
 * The signing secret is stored as it is: the service must sign with it, so a hash would not do.
 * `previousSecret` signs beside it until `previousSecretUntil` after a rotation.
 */
const WebhookEndpointSchema = new Schema(
  {
    ...required({ _id: String, accountId: String, url: String, secret: String }),
    events: { type: [String], required: true },
    previousSecret: { type: String, default: null },
    previousSecretUntil: { type: Date, default: null },
  },
  { collection: 'webhookendpoints', timestamps: true },
);

export type WebhookEndpointDoc = Lean<InferSchemaType<typeof WebhookEndpointSchema>>;
export const WebhookEndpoint = defineModel('WebhookEndpoint', WebhookEndpointSchema, [
  [{ accountId: 1 }, { read: 'webhooks.ts:findWebhookEndpointsOfAccount (the account API, an account event)', gin: { accountId: 'webhooks.ts:findWebhookEndpointsOfAccount' } }],
  [{ events: 1 }, { read: 'webhooks.ts:findWebhookEndpointsSubscribedTo (a fan-out: the endpoints of an event type)', gin: { events: 'webhooks.ts:findWebhookEndpointsSubscribedTo' } }],
]);
