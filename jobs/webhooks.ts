import { defineQueue, safeJobId } from './define';

/**
 * Webhook deliveries (docs/webhooks.md). `deliver` is one attempt of one delivery (an event to an
 * endpoint): a failed attempt schedules the next as a delayed job of the following number, so a
 * duplicate enqueue of an attempt collapses and the schedule lives in MongoDB, not in BullMQ's
 * retry counter. `account-event` fans an event of one account (balance, recharges) out to its
 * endpoints; `pick-created` a new featured pick to every subscribed endpoint; `sweep` re-creates
 * what a lost job leaves behind and checks low balances.
 */
export interface WebhookPayloads {
  deliver: { deliveryId: string; attempt: number; manual?: boolean };
  'account-event': { accountId: string; type: string; eventId: string; timestamp: string; data: Record<string, unknown> };
  'pick-created': { pickId: string };
  sweep: { window: string };
}

export const webhooksQueue = defineQueue<WebhookPayloads>({
  name: 'webhooks',
  // A job that throws (MongoDB or Redis unreachable mid-attempt) is retried by BullMQ; the attempt
  // it was is recorded only once it ran, so a retry makes it again.
  defaultJobOptions: { attempts: 8, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { age: 3600, count: 20000 }, removeOnFail: { age: 7 * 86400 } },
  jobs: {
    // A manual attempt (redeliver) has an id apart from the scheduled attempt of the same number.
    deliver: { jobId: (p) => safeJobId('wh', [p.deliveryId, `a${p.attempt}${p.manual ? 'm' : ''}`]) },
    'account-event': { jobId: (p) => safeJobId('wh-account', [p.eventId]) },
    'pick-created': { jobId: (p) => safeJobId('wh-pick', [p.pickId]) },
    sweep: { jobId: (p) => safeJobId('wh-sweep', [p.window]) },
  },
});
